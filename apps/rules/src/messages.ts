import type { SupportedLangs } from "@fleet/contracts";

/*
 * Every fixed text the rules service writes for an alert's owner, in each language the API
 * accepts: the events' messages (what get_events shows and the notifications carry) and the
 * labels of a notification email's body. Numbers and units come in already written in the
 * owner's units ("95 kph", "12.3 mi", "30 l"), so a template only places them; minutes are
 * written as the number they are. Names (a geofence's, a driver's) are placed as they are,
 * never inflected: languages that would decline them say them after a noun and a colon.
 * A custom event's message is its owner's own text and is never translated.
 */

/** A language the API accepts (SupportedLangs); the keys of every table here. */
export type Lang = (typeof SupportedLangs)[number];

/** One event type's message, by the values it shows. */
export interface EventMessages {
  /** `speed` and `limit` as the owner's units write them ("95 kph"). */
  overspeed(speed: string, limit: string): string;
  geofenceIn(name: string): string;
  geofenceOut(name: string): string;
  stopDuration(minutes: number): string;
  idleDuration(minutes: number): string;
  ignitionDuration(minutes: number): string;
  offlineDuration(minutes: number): string;
  /** `name`: the driver's, or the card read when no driver of the owner has it. */
  driverChanged(name: string): string;
  /** A card read that is not an authorised driver's: `name` as for driverChanged. */
  driverUnauthorized(name: string): string;
  sos(): string;
  /** The device's external power was cut (Traccar's powerCut alarm). */
  unplugged(): string;
  ignitionOn(): string;
  ignitionOff(): string;
  moveStart(): string;
  moveDuration(minutes: number): string;
  /** `name`: the point of interest's. */
  poiStopDuration(name: string, minutes: number): string;
  poiIdleDuration(name: string, minutes: number): string;
  /** `text`: the distance with its unit ("12.3 km"). */
  distance(text: string): string;
  /** `text`: the amount with the fuel sensor's unit ("30 l"). */
  fuelFilled(text: string): string;
  fuelDropped(text: string): string;
}

/** The labels of a notification email's body, before the device, the time, the position and the alert. */
export interface EmailLabels {
  device: string;
  time: string;
  position: string;
  alert: string;
  address: string;
}

/** Every language, every message: a language or a message left out does not compile. */
export const EVENT_MESSAGES: Readonly<Record<Lang, EventMessages>> = {
  en: {
    overspeed: (s, l) => `Overspeed: ${s} (limit ${l})`,
    geofenceIn: (n) => `Entered ${n}`,
    geofenceOut: (n) => `Left ${n}`,
    stopDuration: (m) => `Stopped for more than ${m} min`,
    idleDuration: (m) => `Idle for more than ${m} min`,
    ignitionDuration: (m) => `Ignition on for more than ${m} min`,
    offlineDuration: (m) => `Offline for more than ${m} min`,
    driverChanged: (n) => `Driver changed: ${n}`,
    driverUnauthorized: (n) => `Unauthorized driver: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Unplugged",
    ignitionOn: () => "Ignition on",
    ignitionOff: () => "Ignition off",
    moveStart: () => "Started moving",
    moveDuration: (m) => `Moving for more than ${m} min`,
    poiStopDuration: (n, m) => `Stopped at ${n} for more than ${m} min`,
    poiIdleDuration: (n, m) => `Idle at ${n} for more than ${m} min`,
    distance: (t) => `Distance driven: ${t}`,
    fuelFilled: (t) => `Fuel filled: ${t}`,
    fuelDropped: (t) => `Fuel dropped: ${t}`,
  },
  lt: {
    overspeed: (s, l) => `Greičio viršijimas: ${s} (leistinas ${l})`,
    geofenceIn: (n) => `Įvažiavimas į geozoną: ${n}`,
    geofenceOut: (n) => `Išvažiavimas iš geozonos: ${n}`,
    stopDuration: (m) => `Stovi ilgiau nei ${m} min`,
    idleDuration: (m) => `Tuščioji eiga ilgiau nei ${m} min`,
    ignitionDuration: (m) => `Degimas įjungtas ilgiau nei ${m} min`,
    offlineDuration: (m) => `Be ryšio ilgiau nei ${m} min`,
    driverChanged: (n) => `Pasikeitė vairuotojas: ${n}`,
    driverUnauthorized: (n) => `Neleistinas vairuotojas: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Atjungtas maitinimas",
    ignitionOn: () => "Degimas įjungtas",
    ignitionOff: () => "Degimas išjungtas",
    moveStart: () => "Pradėjo važiuoti",
    moveDuration: (m) => `Važiuoja ilgiau nei ${m} min`,
    poiStopDuration: (n, m) => `Stovi ilgiau nei ${m} min prie objekto: ${n}`,
    poiIdleDuration: (n, m) => `Tuščioji eiga ilgiau nei ${m} min prie objekto: ${n}`,
    distance: (t) => `Nuvažiuotas atstumas: ${t}`,
    fuelFilled: (t) => `Įpilta degalų: ${t}`,
    fuelDropped: (t) => `Degalų sumažėjo: ${t}`,
  },
  ru: {
    overspeed: (s, l) => `Превышение скорости: ${s} (ограничение ${l})`,
    geofenceIn: (n) => `Въезд в геозону: ${n}`,
    geofenceOut: (n) => `Выезд из геозоны: ${n}`,
    stopDuration: (m) => `Стоянка более ${m} мин`,
    idleDuration: (m) => `Холостой ход более ${m} мин`,
    ignitionDuration: (m) => `Зажигание включено более ${m} мин`,
    offlineDuration: (m) => `Нет связи более ${m} мин`,
    driverChanged: (n) => `Смена водителя: ${n}`,
    driverUnauthorized: (n) => `Неавторизованный водитель: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Отключено питание",
    ignitionOn: () => "Зажигание включено",
    ignitionOff: () => "Зажигание выключено",
    moveStart: () => "Начало движения",
    moveDuration: (m) => `В движении более ${m} мин`,
    poiStopDuration: (n, m) => `Стоянка более ${m} мин у объекта: ${n}`,
    poiIdleDuration: (n, m) => `Холостой ход более ${m} мин у объекта: ${n}`,
    distance: (t) => `Пробег: ${t}`,
    fuelFilled: (t) => `Заправка топлива: ${t}`,
    fuelDropped: (t) => `Слив топлива: ${t}`,
  },
  es: {
    overspeed: (s, l) => `Exceso de velocidad: ${s} (límite ${l})`,
    geofenceIn: (n) => `Entrada en la geocerca: ${n}`,
    geofenceOut: (n) => `Salida de la geocerca: ${n}`,
    stopDuration: (m) => `Detenido durante más de ${m} min`,
    idleDuration: (m) => `Motor en ralentí durante más de ${m} min`,
    ignitionDuration: (m) => `Contacto encendido durante más de ${m} min`,
    offlineDuration: (m) => `Sin conexión durante más de ${m} min`,
    driverChanged: (n) => `Cambio de conductor: ${n}`,
    driverUnauthorized: (n) => `Conductor no autorizado: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Desconectado de la alimentación",
    ignitionOn: () => "Contacto encendido",
    ignitionOff: () => "Contacto apagado",
    moveStart: () => "Inicio de movimiento",
    moveDuration: (m) => `En movimiento durante más de ${m} min`,
    poiStopDuration: (n, m) => `Detenido en ${n} durante más de ${m} min`,
    poiIdleDuration: (n, m) => `Al ralentí en ${n} durante más de ${m} min`,
    distance: (t) => `Distancia recorrida: ${t}`,
    fuelFilled: (t) => `Carga de combustible: ${t}`,
    fuelDropped: (t) => `Caída de combustible: ${t}`,
  },
  de: {
    overspeed: (s, l) => `Geschwindigkeitsüberschreitung: ${s} (zulässig ${l})`,
    geofenceIn: (n) => `Geozone betreten: ${n}`,
    geofenceOut: (n) => `Geozone verlassen: ${n}`,
    stopDuration: (m) => `Stillstand länger als ${m} min`,
    idleDuration: (m) => `Leerlauf länger als ${m} min`,
    ignitionDuration: (m) => `Zündung länger als ${m} min eingeschaltet`,
    offlineDuration: (m) => `Länger als ${m} min offline`,
    driverChanged: (n) => `Fahrerwechsel: ${n}`,
    driverUnauthorized: (n) => `Nicht autorisierter Fahrer: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Stromversorgung getrennt",
    ignitionOn: () => "Zündung ein",
    ignitionOff: () => "Zündung aus",
    moveStart: () => "Fahrt begonnen",
    moveDuration: (m) => `Länger als ${m} min in Bewegung`,
    poiStopDuration: (n, m) => `Stillstand länger als ${m} min am Ort: ${n}`,
    poiIdleDuration: (n, m) => `Leerlauf länger als ${m} min am Ort: ${n}`,
    distance: (t) => `Gefahrene Strecke: ${t}`,
    fuelFilled: (t) => `Getankt: ${t}`,
    fuelDropped: (t) => `Kraftstoffverlust: ${t}`,
  },
  // French spacing before a colon: a plain space, not a no-break one, which would cost an SMS its GSM alphabet.
  fr: {
    overspeed: (s, l) => `Excès de vitesse : ${s} (limite ${l})`,
    geofenceIn: (n) => `Entrée dans la zone : ${n}`,
    geofenceOut: (n) => `Sortie de la zone : ${n}`,
    stopDuration: (m) => `À l'arrêt depuis plus de ${m} min`,
    idleDuration: (m) => `Au ralenti depuis plus de ${m} min`,
    ignitionDuration: (m) => `Contact mis depuis plus de ${m} min`,
    offlineDuration: (m) => `Hors ligne depuis plus de ${m} min`,
    driverChanged: (n) => `Changement de conducteur : ${n}`,
    driverUnauthorized: (n) => `Conducteur non autorisé : ${n}`,
    sos: () => "SOS",
    unplugged: () => "Alimentation coupée",
    ignitionOn: () => "Contact mis",
    ignitionOff: () => "Contact coupé",
    moveStart: () => "Début de mouvement",
    moveDuration: (m) => `En mouvement depuis plus de ${m} min`,
    poiStopDuration: (n, m) => `À l'arrêt à ${n} depuis plus de ${m} min`,
    poiIdleDuration: (n, m) => `Au ralenti à ${n} depuis plus de ${m} min`,
    distance: (t) => `Distance parcourue : ${t}`,
    fuelFilled: (t) => `Carburant ajouté : ${t}`,
    fuelDropped: (t) => `Baisse de carburant : ${t}`,
  },
  pt: {
    overspeed: (s, l) => `Excesso de velocidade: ${s} (limite ${l})`,
    geofenceIn: (n) => `Entrada na cerca virtual: ${n}`,
    geofenceOut: (n) => `Saída da cerca virtual: ${n}`,
    stopDuration: (m) => `Parado há mais de ${m} min`,
    idleDuration: (m) => `Motor em marcha lenta há mais de ${m} min`,
    ignitionDuration: (m) => `Ignição ligada há mais de ${m} min`,
    offlineDuration: (m) => `Sem comunicação há mais de ${m} min`,
    driverChanged: (n) => `Mudança de condutor: ${n}`,
    driverUnauthorized: (n) => `Condutor não autorizado: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Alimentação desligada",
    ignitionOn: () => "Ignição ligada",
    ignitionOff: () => "Ignição desligada",
    moveStart: () => "Início de movimento",
    moveDuration: (m) => `Em movimento há mais de ${m} min`,
    poiStopDuration: (n, m) => `Parado em ${n} há mais de ${m} min`,
    poiIdleDuration: (n, m) => `Ao ralenti em ${n} há mais de ${m} min`,
    distance: (t) => `Distância percorrida: ${t}`,
    fuelFilled: (t) => `Abastecimento: ${t}`,
    fuelDropped: (t) => `Queda de combustível: ${t}`,
  },
  pl: {
    overspeed: (s, l) => `Przekroczenie prędkości: ${s} (limit ${l})`,
    geofenceIn: (n) => `Wjazd do geostrefy: ${n}`,
    geofenceOut: (n) => `Wyjazd z geostrefy: ${n}`,
    stopDuration: (m) => `Postój dłuższy niż ${m} min`,
    idleDuration: (m) => `Praca na biegu jałowym dłużej niż ${m} min`,
    ignitionDuration: (m) => `Zapłon włączony dłużej niż ${m} min`,
    offlineDuration: (m) => `Brak połączenia dłużej niż ${m} min`,
    driverChanged: (n) => `Zmiana kierowcy: ${n}`,
    driverUnauthorized: (n) => `Nieuprawniony kierowca: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Odłączone zasilanie",
    ignitionOn: () => "Zapłon włączony",
    ignitionOff: () => "Zapłon wyłączony",
    moveStart: () => "Rozpoczęcie jazdy",
    moveDuration: (m) => `W ruchu dłużej niż ${m} min`,
    poiStopDuration: (n, m) => `Postój dłuższy niż ${m} min w punkcie: ${n}`,
    poiIdleDuration: (n, m) => `Praca na biegu jałowym dłużej niż ${m} min w punkcie: ${n}`,
    distance: (t) => `Przejechany dystans: ${t}`,
    fuelFilled: (t) => `Tankowanie: ${t}`,
    fuelDropped: (t) => `Ubytek paliwa: ${t}`,
  },
  it: {
    overspeed: (s, l) => `Eccesso di velocità: ${s} (limite ${l})`,
    geofenceIn: (n) => `Ingresso nella zona: ${n}`,
    geofenceOut: (n) => `Uscita dalla zona: ${n}`,
    stopDuration: (m) => `Fermo da più di ${m} min`,
    idleDuration: (m) => `Motore al minimo da più di ${m} min`,
    ignitionDuration: (m) => `Accensione inserita da più di ${m} min`,
    offlineDuration: (m) => `Offline da più di ${m} min`,
    driverChanged: (n) => `Cambio autista: ${n}`,
    driverUnauthorized: (n) => `Autista non autorizzato: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Alimentazione scollegata",
    ignitionOn: () => "Accensione inserita",
    ignitionOff: () => "Accensione disinserita",
    moveStart: () => "Inizio movimento",
    moveDuration: (m) => `In movimento da più di ${m} min`,
    poiStopDuration: (n, m) => `Fermo presso ${n} da più di ${m} min`,
    poiIdleDuration: (n, m) => `Al minimo presso ${n} da più di ${m} min`,
    distance: (t) => `Distanza percorsa: ${t}`,
    fuelFilled: (t) => `Rifornimento: ${t}`,
    fuelDropped: (t) => `Calo di carburante: ${t}`,
  },
  nl: {
    overspeed: (s, l) => `Snelheidsovertreding: ${s} (limiet ${l})`,
    geofenceIn: (n) => `Zone binnengereden: ${n}`,
    geofenceOut: (n) => `Zone verlaten: ${n}`,
    stopDuration: (m) => `Staat langer dan ${m} min stil`,
    idleDuration: (m) => `Draait langer dan ${m} min stationair`,
    ignitionDuration: (m) => `Contact langer dan ${m} min aan`,
    offlineDuration: (m) => `Langer dan ${m} min offline`,
    driverChanged: (n) => `Chauffeurswissel: ${n}`,
    driverUnauthorized: (n) => `Onbevoegde chauffeur: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Voeding losgekoppeld",
    ignitionOn: () => "Contact aan",
    ignitionOff: () => "Contact uit",
    moveStart: () => "Begonnen met rijden",
    moveDuration: (m) => `Langer dan ${m} min in beweging`,
    poiStopDuration: (n, m) => `Staat langer dan ${m} min stil bij ${n}`,
    poiIdleDuration: (n, m) => `Langer dan ${m} min stationair bij ${n}`,
    distance: (t) => `Gereden afstand: ${t}`,
    fuelFilled: (t) => `Getankt: ${t}`,
    fuelDropped: (t) => `Brandstofverlies: ${t}`,
  },
  lv: {
    overspeed: (s, l) => `Ātruma pārsniegšana: ${s} (ierobežojums ${l})`,
    geofenceIn: (n) => `Iebraukšana ģeozonā: ${n}`,
    geofenceOut: (n) => `Izbraukšana no ģeozonas: ${n}`,
    stopDuration: (m) => `Stāv ilgāk par ${m} min`,
    idleDuration: (m) => `Tukšgaita ilgāk par ${m} min`,
    ignitionDuration: (m) => `Aizdedze ieslēgta ilgāk par ${m} min`,
    offlineDuration: (m) => `Nav sakaru ilgāk par ${m} min`,
    driverChanged: (n) => `Vadītāja maiņa: ${n}`,
    driverUnauthorized: (n) => `Neatļauts vadītājs: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Atvienota barošana",
    ignitionOn: () => "Aizdedze ieslēgta",
    ignitionOff: () => "Aizdedze izslēgta",
    moveStart: () => "Sāka kustību",
    moveDuration: (m) => `Kustībā ilgāk par ${m} min`,
    poiStopDuration: (n, m) => `Stāv ilgāk par ${m} min pie objekta: ${n}`,
    poiIdleDuration: (n, m) => `Tukšgaitā ilgāk par ${m} min pie objekta: ${n}`,
    distance: (t) => `Nobrauktais attālums: ${t}`,
    fuelFilled: (t) => `Degvielas uzpilde: ${t}`,
    fuelDropped: (t) => `Degvielas kritums: ${t}`,
  },
  et: {
    overspeed: (s, l) => `Kiiruse ületamine: ${s} (lubatud ${l})`,
    geofenceIn: (n) => `Tsooni sisenemine: ${n}`,
    geofenceOut: (n) => `Tsoonist väljumine: ${n}`,
    stopDuration: (m) => `Seisab üle ${m} min`,
    idleDuration: (m) => `Tühikäigul üle ${m} min`,
    ignitionDuration: (m) => `Süüde sees üle ${m} min`,
    offlineDuration: (m) => `Ühenduseta üle ${m} min`,
    driverChanged: (n) => `Juhi vahetus: ${n}`,
    driverUnauthorized: (n) => `Volitamata juht: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Toide lahti ühendatud",
    ignitionOn: () => "Süüde sees",
    ignitionOff: () => "Süüde väljas",
    moveStart: () => "Liikumise algus",
    moveDuration: (m) => `Liigub üle ${m} min`,
    poiStopDuration: (n, m) => `Seisab üle ${m} min kohas: ${n}`,
    poiIdleDuration: (n, m) => `Tühikäigul üle ${m} min kohas: ${n}`,
    distance: (t) => `Läbitud vahemaa: ${t}`,
    fuelFilled: (t) => `Tankimine: ${t}`,
    fuelDropped: (t) => `Kütuse langus: ${t}`,
  },
  // "dk'yı": the suffix follows the abbreviation (read "dakikayı"), so it does not change with the number.
  tr: {
    overspeed: (s, l) => `Hız aşımı: ${s} (sınır ${l})`,
    geofenceIn: (n) => `Bölgeye giriş: ${n}`,
    geofenceOut: (n) => `Bölgeden çıkış: ${n}`,
    stopDuration: (m) => `Duruş süresi ${m} dk'yı aştı`,
    idleDuration: (m) => `Rölanti süresi ${m} dk'yı aştı`,
    ignitionDuration: (m) => `Kontak açık kalma süresi ${m} dk'yı aştı`,
    offlineDuration: (m) => `Bağlantısız kalma süresi ${m} dk'yı aştı`,
    driverChanged: (n) => `Sürücü değişti: ${n}`,
    driverUnauthorized: (n) => `Yetkisiz sürücü: ${n}`,
    sos: () => "SOS",
    unplugged: () => "Güç bağlantısı kesildi",
    ignitionOn: () => "Kontak açıldı",
    ignitionOff: () => "Kontak kapandı",
    moveStart: () => "Hareket başladı",
    moveDuration: (m) => `Hareket süresi ${m} dk'yı aştı`,
    poiStopDuration: (n, m) => `Duruş süresi ${m} dk'yı aştı, nokta: ${n}`,
    poiIdleDuration: (n, m) => `Rölanti süresi ${m} dk'yı aştı, nokta: ${n}`,
    distance: (t) => `Kat edilen mesafe: ${t}`,
    fuelFilled: (t) => `Yakıt dolumu: ${t}`,
    fuelDropped: (t) => `Yakıt düşüşü: ${t}`,
  },
  // "دقيقة" whatever the number, as Arabic interfaces write a unit after a figure.
  ar: {
    overspeed: (s, l) => `تجاوز السرعة: ${s} (الحد ${l})`,
    geofenceIn: (n) => `دخول المنطقة الجغرافية: ${n}`,
    geofenceOut: (n) => `خروج من المنطقة الجغرافية: ${n}`,
    stopDuration: (m) => `متوقف لأكثر من ${m} دقيقة`,
    idleDuration: (m) => `المحرك في وضع الخمول لأكثر من ${m} دقيقة`,
    ignitionDuration: (m) => `الإشعال مفعّل لأكثر من ${m} دقيقة`,
    offlineDuration: (m) => `غير متصل لأكثر من ${m} دقيقة`,
    driverChanged: (n) => `تغيير السائق: ${n}`,
    driverUnauthorized: (n) => `سائق غير مصرح له: ${n}`,
    sos: () => "استغاثة (SOS)",
    unplugged: () => "انقطعت التغذية الكهربائية",
    ignitionOn: () => "تم تشغيل الإشعال",
    ignitionOff: () => "تم إيقاف الإشعال",
    moveStart: () => "بدأ التحرك",
    moveDuration: (m) => `في حركة لأكثر من ${m} دقيقة`,
    poiStopDuration: (n, m) => `متوقف لأكثر من ${m} دقيقة عند: ${n}`,
    poiIdleDuration: (n, m) => `في وضع الخمول لأكثر من ${m} دقيقة عند: ${n}`,
    distance: (t) => `المسافة المقطوعة: ${t}`,
    fuelFilled: (t) => `تعبئة الوقود: ${t}`,
    fuelDropped: (t) => `انخفاض الوقود: ${t}`,
  },
};

export const EMAIL_LABELS: Readonly<Record<Lang, EmailLabels>> = {
  en: { device: "Device", time: "Time", position: "Position", alert: "Alert", address: "Address" },
  lt: { device: "Įrenginys", time: "Laikas", position: "Vieta", alert: "Įspėjimas", address: "Adresas" },
  ru: { device: "Устройство", time: "Время", position: "Координаты", alert: "Оповещение", address: "Адрес" },
  es: { device: "Dispositivo", time: "Hora", position: "Posición", alert: "Alerta", address: "Dirección" },
  de: { device: "Gerät", time: "Zeit", position: "Position", alert: "Alarm", address: "Adresse" },
  fr: { device: "Appareil", time: "Heure", position: "Position", alert: "Alerte", address: "Adresse" },
  pt: { device: "Dispositivo", time: "Hora", position: "Posição", alert: "Alerta", address: "Endereço" },
  pl: { device: "Urządzenie", time: "Czas", position: "Pozycja", alert: "Alarm", address: "Adres" },
  it: { device: "Dispositivo", time: "Ora", position: "Posizione", alert: "Allarme", address: "Indirizzo" },
  nl: { device: "Apparaat", time: "Tijd", position: "Positie", alert: "Melding", address: "Adres" },
  lv: { device: "Ierīce", time: "Laiks", position: "Atrašanās vieta", alert: "Brīdinājums", address: "Adrese" },
  et: { device: "Seade", time: "Aeg", position: "Asukoht", alert: "Hoiatus", address: "Aadress" },
  tr: { device: "Cihaz", time: "Zaman", position: "Konum", alert: "Uyarı", address: "Adres" },
  ar: { device: "الجهاز", time: "الوقت", position: "الموقع", alert: "التنبيه", address: "العنوان" },
};

/** Whether `lang` is one of the tables' languages (an own key: "constructor" is not a language). */
export const isLang = (lang: string): lang is Lang => Object.hasOwn(EVENT_MESSAGES, lang);

/** The event messages in `lang`; English for a language the tables lack. */
export const messagesFor = (lang: string): EventMessages => (isLang(lang) ? EVENT_MESSAGES[lang] : EVENT_MESSAGES.en);

/** A notification email's labels in `lang`; English for a language the tables lack. */
export const emailLabelsFor = (lang: string): EmailLabels => (isLang(lang) ? EMAIL_LABELS[lang] : EMAIL_LABELS.en);
