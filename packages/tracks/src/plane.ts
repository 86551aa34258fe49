export interface LatLng {
  lat: number;
  lng: number;
}

/** A point in metres east (x) and north (y) of a vehicle's home. */
export interface Point {
  x: number;
  y: number;
}

const METRES_PER_DEGREE = 111_320;

/**
 * Metres around a home point to latitude and longitude, on the plane tangent at home: a
 * vehicle roams a few tens of km, where the error is far below GPS noise.
 */
export class Plane {
  private readonly metresPerDegreeLng: number;

  constructor(readonly home: LatLng) {
    this.metresPerDegreeLng = METRES_PER_DEGREE * Math.cos((home.lat * Math.PI) / 180);
  }

  toLatLng(p: Point): LatLng {
    return { lat: this.home.lat + p.y / METRES_PER_DEGREE, lng: this.home.lng + p.x / this.metresPerDegreeLng };
  }
}

/** A compass heading in degrees (0 north, 90 east) as a unit step in metres. */
export function unit(headingDeg: number): Point {
  const h = (headingDeg * Math.PI) / 180;
  return { x: Math.sin(h), y: Math.cos(h) };
}

export const normalizeHeading = (deg: number) => ((deg % 360) + 360) % 360;
