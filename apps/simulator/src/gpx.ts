import { readFile } from "node:fs/promises";
import { gpx } from "@tmcw/togeojson";
import { DOMParser } from "@xmldom/xmldom";

/** One recorded point: where, and when if the file says. */
export interface RecordedPoint {
  lat: number;
  lng: number;
  altitude?: number;
  /** Epoch ms; absent in routes and in tracks recorded without times. */
  time?: number;
}

export interface RecordedTrack {
  /** The file and the track's name, for messages. */
  name: string;
  points: RecordedPoint[];
}

/** What togeojson gives for a GPX track or route (its types name GeoJSON's, which this package does not install). */
interface LineFeature {
  geometry: { type: "LineString"; coordinates: number[][] } | { type: "MultiLineString"; coordinates: number[][][] } | { type: string } | null;
  properties: { name?: string; coordinateProperties?: { times?: string[] | string[][] } } | null;
}

function pointsOf(coordinates: number[][], times: readonly string[] | undefined): RecordedPoint[] {
  return coordinates.map(([lng, lat, altitude], i) => {
    const time = times?.[i] === undefined ? undefined : Date.parse(times[i]!);
    return { lat: lat!, lng: lng!, altitude, time: Number.isNaN(time) ? undefined : time };
  });
}

/**
 * The tracks and routes of a GPX document, each as its points in order (a track's segments
 * one after the other), parsed by togeojson over xmldom. Waypoints are not tracks and are left out.
 */
export function parseGpx(text: string, file: string): RecordedTrack[] {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => void (level !== "warning" && errors.push(message)) }).parseFromString(text, "text/xml");
  if (errors.length > 0) throw new Error(`${file} is not readable GPX: ${errors[0]}`);
  const features = (gpx(doc) as unknown as { features: LineFeature[] }).features;
  const tracks: RecordedTrack[] = [];
  for (const [i, f] of features.entries()) {
    const g = f.geometry;
    const times = f.properties?.coordinateProperties?.times;
    const name = `${file}${f.properties?.name ? ` (${f.properties.name})` : ` #${i + 1}`}`;
    if (g?.type === "LineString" && "coordinates" in g) tracks.push({ name, points: pointsOf(g.coordinates as number[][], times as string[] | undefined) });
    else if (g?.type === "MultiLineString" && "coordinates" in g) {
      const lines = g.coordinates as number[][][];
      tracks.push({ name, points: lines.flatMap((line, j) => pointsOf(line, (times as string[][] | undefined)?.[j])) });
    }
  }
  const usable = tracks.filter((t) => t.points.length >= 2);
  if (usable.length === 0) throw new Error(`${file} holds no track or route of two points or more`);
  return usable;
}

export async function readGpxFiles(files: readonly string[]): Promise<RecordedTrack[]> {
  const out: RecordedTrack[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      throw new Error(`cannot read ${file}: ${(err as Error).message}`);
    }
    out.push(...parseGpx(text, file));
  }
  return out;
}
