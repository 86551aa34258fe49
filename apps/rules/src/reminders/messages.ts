import { isLang, type Lang } from "../messages.js";

/*
 * The texts of a maintenance service's reminder in each language the API accepts. `at` is
 * where the service falls due, already written ("17000 km", "1500 h", "2026-12-10"); the
 * service's name is its owner's own text and is placed as it is.
 */

export interface ReminderMessages {
  /** The service reaches its reminder before it expires. */
  due(name: string, at: string): string;
  /** The service reached what it expires at (or was past it when first looked at). */
  expired(name: string): string;
}

export const REMINDER_MESSAGES: Readonly<Record<Lang, ReminderMessages>> = {
  en: { due: (n, at) => `Service due: ${n} (${at})`, expired: (n) => `Service expired: ${n}` },
  lt: { due: (n, at) => `Artėja aptarnavimas: ${n} (${at})`, expired: (n) => `Baigėsi aptarnavimo terminas: ${n}` },
  ru: { due: (n, at) => `Скоро обслуживание: ${n} (${at})`, expired: (n) => `Срок обслуживания истёк: ${n}` },
  es: { due: (n, at) => `Mantenimiento próximo: ${n} (${at})`, expired: (n) => `Mantenimiento vencido: ${n}` },
  de: { due: (n, at) => `Wartung fällig: ${n} (${at})`, expired: (n) => `Wartung überfällig: ${n}` },
  fr: { due: (n, at) => `Entretien à prévoir : ${n} (${at})`, expired: (n) => `Entretien dépassé : ${n}` },
  pt: { due: (n, at) => `Manutenção próxima: ${n} (${at})`, expired: (n) => `Manutenção vencida: ${n}` },
  pl: { due: (n, at) => `Zbliża się serwis: ${n} (${at})`, expired: (n) => `Termin serwisu minął: ${n}` },
  it: { due: (n, at) => `Manutenzione in scadenza: ${n} (${at})`, expired: (n) => `Manutenzione scaduta: ${n}` },
  nl: { due: (n, at) => `Onderhoud binnenkort: ${n} (${at})`, expired: (n) => `Onderhoud verlopen: ${n}` },
  lv: { due: (n, at) => `Tuvojas apkope: ${n} (${at})`, expired: (n) => `Apkopes termiņš beidzies: ${n}` },
  et: { due: (n, at) => `Hooldus läheneb: ${n} (${at})`, expired: (n) => `Hoolduse tähtaeg möödas: ${n}` },
  tr: { due: (n, at) => `Bakım zamanı yaklaşıyor: ${n} (${at})`, expired: (n) => `Bakım süresi doldu: ${n}` },
  ar: { due: (n, at) => `اقتراب موعد الصيانة: ${n} (${at})`, expired: (n) => `انتهت مهلة الصيانة: ${n}` },
};

/** The reminder texts in `lang`; English for a language the tables lack. */
export const reminderMessagesFor = (lang: string): ReminderMessages => (isLang(lang) ? REMINDER_MESSAGES[lang] : REMINDER_MESSAGES.en);
