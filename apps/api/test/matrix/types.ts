import type { ApiHarness, Reply, TestUser } from "../fixture.js";

/** Ids of one user's records, one of each kind, as the groups' seeds create them. */
export interface Records {
  device: number;
  driver: number;
  sensor: number;
  service: number;
  group: number;
  geofence: number;
  geofenceGroup: number;
  route: number;
  routeGroup: number;
  mapIcon: number;
  mapIconGroup: number;
  customEvent: number;
  alert: number;
  gprsTemplate: number;
  smsTemplate: number;
  task: number;
  taskStatus: number;
  report: number;
  sharing: number;
  callAction: number;
  /** A user of its own, for the administrators' requests to name. */
  client: number;
  /** An administrator's company (platform-wide, no user's). */
  company: number;
  /** The file name of a photo of the device. */
  media: string;
}

export interface RequestSpec {
  /** Path parameters, for routes such as `get /get_task/{id}`. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
}

export interface IdCase {
  /** "get /edit_device_data", optionally followed by " (what)" when a route has several cases. */
  route: string;
  /** The call, aimed at `target`'s records; `own` are the caller's records (for fields that must be valid). */
  call(h: ApiHarness, caller: TestUser, target: Records, own: Records): Promise<Reply>;
}

export interface ListCase {
  route: string;
  call(h: ApiHarness, caller: TestUser): Promise<Reply>;
}

/**
 * One endpoint group's part of the isolation and malformed-input matrices
 * (isolation.test.ts, malformed-matrix.test.ts). Each group of endpoints keeps its own file.
 */
export interface MatrixGroup {
  /** Creates the group's records for `user` and returns their ids; `base` holds the records of groups seeded before (the others still 0). */
  seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>>;
  /** Text of the seeded records that only their owner may ever see (names, titles), by tag. */
  privateText(tag: string): string[];
  /** Every endpoint of the group that takes an id of a record. */
  idCases: IdCase[];
  /** Every endpoint that lists or reads without an id. */
  listCases: ListCase[];
  /** Routes that act on the caller's own account only, or on no stored records. */
  accountOnly?: string[];
  /** A valid request per route of the group, so a malformed variant is the only thing wrong. */
  valid: Record<string, (own: Records) => RequestSpec>;
}
