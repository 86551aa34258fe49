import { distanceKm } from "@fleet/geo";
import type { DeviceRules, RuleAlert, RulePoi } from "../model.js";

/**
 * The nearest of the alert's points of interest within its distance_tolerance (metres) of a
 * place, or undefined when none is that near (or the alert names none that still exist).
 */
export function poiAt(device: DeviceRules, alert: RuleAlert, at: { latitude: number; longitude: number }): RulePoi | undefined {
  const tolerance = alert.attributes.distance_tolerance;
  if (tolerance === undefined) return undefined;
  let nearest: RulePoi | undefined;
  let nearestM = Infinity;
  for (const id of alert.pois) {
    const poi = device.pois.get(id);
    if (!poi) continue;
    const m = distanceKm({ lat: at.latitude, lng: at.longitude }, poi) * 1000;
    if (m <= tolerance && m < nearestM) {
      nearest = poi;
      nearestM = m;
    }
  }
  return nearest;
}
