import { round, type HistoryExportFormat, type HistoryRow, type UserUnits } from "@fleet/contracts";
import { xmlText } from "./xml.js";

/*
 * A device's track as a file, written a chunk of rows at a time so an export of a month
 * streams rather than sits in memory. GPX and KML carry what their readers (GPX viewers,
 * Google Earth) expect: WGS84, metres, UTC times, SI speeds. CSV is for spreadsheets and
 * shows what the user sees elsewhere: times on the user's clock, the user's units.
 */

export interface TrackMeta {
  deviceName: string;
  /** The period as the user asked for it, for titles. */
  period: string;
  units: UserUnits;
  /** `YYYY-MM-DD HH:MM:SS` on the user's clock. */
  localTime: (ms: number) => string;
}

export interface TrackWriter {
  contentType: string;
  extension: string;
  head(meta: TrackMeta): string;
  /** The next rows in time order; `previous` is the row written last, if any; `stepKm` each row's step (track-steps.ts). */
  rows(meta: TrackMeta, rows: readonly HistoryRow[], previous: HistoryRow | undefined, stepKm: (row: HistoryRow) => number): string;
  tail(meta: TrackMeta): string;
}

const xml = xmlText;
const iso = (ms: number) => new Date(ms).toISOString();
/** A number in plain decimal digits: String() writes 1e-7 for a coordinate a hair off zero, which XML readers and spreadsheets take for text. */
const dec = (n: number) => {
  const s = String(n);
  return s.includes("e") ? n.toFixed(9).replace(/\.?0+$/, "") : s;
};
const KMH_PER_MS = 3.6;

const gpx: TrackWriter = {
  contentType: "application/gpx+xml",
  extension: "gpx",
  head: (m) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Fleet tracking" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
<metadata><name>${xml(`${m.deviceName} ${m.period}`)}</name></metadata>
<trk><name>${xml(m.deviceName)}</name><trkseg>
`,
  rows: (_m, rows) => {
    let out = "";
    for (const r of rows) {
      // Speed (m/s) and course travel in Garmin's TrackPointExtension, which GPX 1.1 viewers read.
      out += `<trkpt lat="${dec(r.latitude)}" lon="${dec(r.longitude)}"><ele>${dec(r.altitude)}</ele><time>${iso(r.fixTime)}</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>${dec(round(r.speedKmh / KMH_PER_MS, 3))}</gpxtpx:speed><gpxtpx:course>${dec(r.course)}</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>\n`;
    }
    return out;
  },
  tail: () => "</trkseg></trk>\n</gpx>\n",
};

/**
 * KML 2.2 with Google's gx:Track (a timed line Google Earth plays back). A gx:Track lists all
 * its times before all its coordinates, so each chunk of rows is a gx:Track of its own, starting
 * at the chunk before's last fix so the line has no gaps; all of them sit in one Placemark's
 * gx:MultiTrack, interpolated, so a viewer lists one track for the device, not one per chunk.
 */
const kml: TrackWriter = {
  contentType: "application/vnd.google-earth.kml+xml",
  extension: "kml",
  head: (m) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
<Document><name>${xml(`${m.deviceName} ${m.period}`)}</name>
<Style id="track"><LineStyle><color>ffff7f00</color><width>3</width></LineStyle></Style>
<Placemark><name>${xml(m.deviceName)}</name><styleUrl>#track</styleUrl><gx:MultiTrack><altitudeMode>absolute</altitudeMode><gx:interpolate>1</gx:interpolate>
`,
  rows: (_m, rows, previous) => {
    if (rows.length === 0) return "";
    const points = previous ? [previous, ...rows] : rows;
    let whens = "";
    let coords = "";
    for (const r of points) {
      whens += `<when>${iso(r.fixTime)}</when>\n`;
      coords += `<gx:coord>${dec(r.longitude)} ${dec(r.latitude)} ${dec(r.altitude)}</gx:coord>\n`;
    }
    return `<gx:Track><altitudeMode>absolute</altitudeMode>\n${whens}${coords}</gx:Track>\n`;
  },
  tail: () => "</gx:MultiTrack></Placemark>\n</Document>\n</kml>\n",
};

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; text a spreadsheet would run as a formula gets a leading `'`. */
function csvText(s: string): string {
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const csv: TrackWriter = {
  contentType: "text/csv; charset=utf-8",
  extension: "csv",
  head: (m) =>
    `${["time", "time_utc", "latitude", "longitude", `altitude (${m.units.altitudeUnit})`, `speed (${m.units.speedUnit})`, "course", `distance (${m.units.distanceUnit})`, "valid", "protocol", "attributes"].join(",")}\r\n`,
  rows: (m, rows, _previous, stepKm) => {
    let out = "";
    for (const r of rows) {
      const fields = [
        m.localTime(r.fixTime),
        iso(r.fixTime),
        dec(r.latitude),
        dec(r.longitude),
        dec(round(m.units.altitude(r.altitude), 1)),
        dec(round(m.units.speed(r.speedKmh), 1)),
        dec(r.course),
        dec(round(m.units.distance(stepKm(r)), 6)),
        r.valid ? 1 : 0,
        csvText(r.protocol),
        csvText(JSON.stringify(r.attributes)),
      ];
      out += `${fields.join(",")}\r\n`;
    }
    return out;
  },
  tail: () => "",
};

export const TRACK_WRITERS: Record<HistoryExportFormat, TrackWriter> = { gpx, kml, csv };
