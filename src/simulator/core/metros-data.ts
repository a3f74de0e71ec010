// The metro catalogue of section 2.4: every code in its region, with city names, and deterministic
// latency and bandwidth figures between metros (derived from rough coordinates, so they are stable
// and plausible: nearby metros are fast and allow more bandwidth).

export type Region = "EMEA" | "AMER" | "APAC";

export interface MetroInfo {
  code: string;
  name: string;
  region: Region;
  lat: number;
  lon: number;
}

const M = (code: string, name: string, region: Region, lat: number, lon: number): MetroInfo => ({ code, name, region, lat, lon });

export const METROS: readonly MetroInfo[] = [
  // EMEA
  M("AD", "Abu Dhabi", "EMEA", 24.45, 54.38), M("AM", "Amsterdam", "EMEA", 52.37, 4.9), M("BA", "Barcelona", "EMEA", 41.39, 2.17),
  M("DX", "Dubai", "EMEA", 25.2, 55.27), M("DB", "Dublin", "EMEA", 53.35, -6.26), M("DU", "Dusseldorf", "EMEA", 51.23, 6.78),
  M("EN", "Espoo", "EMEA", 60.21, 24.66), M("FR", "Frankfurt", "EMEA", 50.11, 8.68), M("GV", "Geneva", "EMEA", 46.2, 6.14),
  M("HH", "Hamburg", "EMEA", 53.55, 9.99), M("HE", "Helsinki", "EMEA", 60.17, 24.94), M("IL", "Istanbul", "EMEA", 41.01, 28.98),
  M("LS", "Lisbon", "EMEA", 38.72, -9.14), M("LD", "London", "EMEA", 51.51, -0.13), M("MD", "Madrid", "EMEA", 40.42, -3.7),
  M("MA", "Manchester", "EMEA", 53.48, -2.24), M("ML", "Milan", "EMEA", 45.46, 9.19), M("MU", "Munich", "EMEA", 48.14, 11.58),
  M("MC", "Muscat", "EMEA", 23.59, 58.38), M("PA", "Paris", "EMEA", 48.86, 2.35), M("SA", "Seville", "EMEA", 37.39, -5.98),
  M("SO", "Sofia", "EMEA", 42.7, 23.32), M("SK", "Stockholm", "EMEA", 59.33, 18.07), M("WA", "Warsaw", "EMEA", 52.23, 21.01),
  M("ZH", "Zurich", "EMEA", 47.38, 8.54), M("ZW", "Zwolle", "EMEA", 52.52, 6.08),
  // AMER
  M("AT", "Atlanta", "AMER", 33.75, -84.39), M("BG", "Bogota", "AMER", 4.71, -74.07), M("BO", "Boston", "AMER", 42.36, -71.06),
  M("CH", "Chicago", "AMER", 41.88, -87.63), M("CU", "Culpeper", "AMER", 38.47, -77.99), M("DA", "Dallas", "AMER", 32.78, -96.8),
  M("DE", "Denver", "AMER", 39.74, -104.99), M("HO", "Houston", "AMER", 29.76, -95.37), M("LA", "Los Angeles", "AMER", 34.05, -118.24),
  M("MX", "Mexico City", "AMER", 19.43, -99.13), M("MI", "Miami", "AMER", 25.76, -80.19), M("MO", "Montreal", "AMER", 45.5, -73.57),
  M("MT", "Monterrey", "AMER", 25.69, -100.32), M("NY", "New York", "AMER", 40.71, -74.01), M("PH", "Philadelphia", "AMER", 39.95, -75.17),
  M("RJ", "Rio de Janeiro", "AMER", -22.91, -43.17), M("SP", "Sao Paulo", "AMER", -23.55, -46.63), M("SE", "Seattle", "AMER", 47.61, -122.33),
  M("SV", "Silicon Valley", "AMER", 37.39, -121.96), M("TR", "Toronto", "AMER", 43.65, -79.38), M("DC", "Washington, D.C.", "AMER", 38.9, -77.04),
  // APAC
  M("AE", "Adelaide", "APAC", -34.93, 138.6), M("BR", "Brisbane", "APAC", -27.47, 153.03), M("CA", "Canberra", "APAC", -35.28, 149.13),
  M("HK", "Hong Kong", "APAC", 22.32, 114.17), M("JK", "Jakarta", "APAC", -6.2, 106.85), M("ME", "Melbourne", "APAC", -37.81, 144.96),
  M("OS", "Osaka", "APAC", 34.69, 135.5), M("PE", "Perth", "APAC", -31.95, 115.86), M("SL", "Seoul", "APAC", 37.57, 126.98),
  M("SH", "Shanghai", "APAC", 31.23, 121.47), M("SG", "Singapore", "APAC", 1.35, 103.82), M("SY", "Sydney", "APAC", -33.87, 151.21),
  M("TY", "Tokyo", "APAC", 35.68, 139.69),
];

export const METRO_BY_CODE: ReadonlyMap<string, MetroInfo> = new Map(METROS.map((m) => [m.code, m]));

/** Great-circle distance in km. */
function distanceKm(a: MetroInfo, b: MetroInfo): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Average monthly latency in ms: fibre at about 200 km/ms with a 1.4 path factor, round trip, plus switching. */
export function avgLatencyMs(a: string, b: string): number {
  const ma = METRO_BY_CODE.get(a);
  const mb = METRO_BY_CODE.get(b);
  if (!ma || !mb) throw new Error(`unknown metro ${a} or ${b}`);
  if (a === b) return 0.5;
  return Math.round(((distanceKm(ma, mb) * 1.4 * 2) / 200 + 0.8) * 100) / 100;
}

/** Largest local virtual connection in a metro (Mbps). */
export const LOCAL_VC_BANDWIDTH_MAX = 50_000;

/** Largest remote virtual connection between two metros (Mbps): less over long distances. */
export function remoteVcBandwidthMax(a: string, b: string): number {
  if (a === b) return LOCAL_VC_BANDWIDTH_MAX;
  const latency = avgLatencyMs(a, b);
  if (latency < 20) return 50_000;
  if (latency < 80) return 10_000;
  return 5_000;
}
