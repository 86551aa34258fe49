import type { Attributes } from "@fleet/contracts";
import type { HistoryDriver } from "./driver.js";
import { positionFilter } from "./filter.js";
import type { HistoryQuery, PositionWithFields, StoredRow } from "./port.js";
import { RowBinaryReader } from "./row-binary.js";

/*
 * A device's positions in a range together with the fields of the vendor's history position
 * that the stored row alone decides, written as JSON by the engine while it reads the rows.
 * A device-day is ~8,600 positions and ~5 MB of JSON: parsing the rows and stringifying them
 * again in JS was most of get_history's time. The rows come as RowBinary, so numbers are read
 * in place and the fields stay bytes that an answer copies as they are. Fields made of the
 * attributes (other, other_arr, power) are the caller's: the engine's JSON functions took
 * longer to write them than JS does from the parsed attributes.
 */

/**
 * The fields of the vendor's history position that the stored row alone decides and that are
 * plain numbers and names, as the start of a JSON object (its opening brace and these members,
 * for the caller to add its own and close), written by the engine: id, device_id, item_id,
 * sort, latitude, longitude, lat, lng, course, valid, protocol.
 */
const POSITION_FIELDS = `concat('{"id":', toString(id),
    ',"device_id":', toString(device_id),
    ',"item_id":"i', toString(id),
    '","sort":', toString(intDiv(toUnixTimestamp64Milli(fix_time), 1000)),
    ',"latitude":', toString(latitude),
    ',"longitude":', toString(longitude),
    ',"lat":', toString(latitude),
    ',"lng":', toString(longitude),
    ',"course":', toString(course),
    ',"valid":', if(valid != 0, '"1"', '"0"'),
    ',"protocol":', toJSONString(protocol))`;

/**
 * The columns read, in RowBinary order. Float32 speed and course go through their shortest
 * text, so they are the numbers the JSON reads (POSITION_JSON) give, not the float's wider value.
 */
const COLUMNS = `id, toUnixTimestamp64Milli(fix_time), toUnixTimestamp64Milli(server_time), unique_id, toString(protocol),
    latitude, longitude, altitude, toFloat64(toString(course)), toFloat64(toString(speed)), distance, valid, engine_on, attributes`;

/**
 * A stored position whose texts are decoded on first read: a history answer never reads the
 * device's unique id or protocol (the same on every row), and its attributes only once.
 */
class StoredPosition implements PositionWithFields {
  private text: string | undefined;
  private parsed: Attributes | undefined;
  constructor(
    private readonly source: RowBinaryReader,
    readonly id: number,
    readonly deviceId: number,
    readonly fixTime: number,
    readonly serverTime: number,
    private readonly uniqueIdAt: number,
    private readonly protocolAt: number,
    readonly latitude: number,
    readonly longitude: number,
    readonly altitude: number,
    readonly course: number,
    readonly speedKmh: number,
    readonly distanceKm: number,
    readonly valid: boolean,
    readonly engineOn: boolean,
    private readonly attributesAt: number,
    readonly fields: Uint8Array,
  ) {}
  get uniqueId(): string {
    return this.source.stringAt(this.uniqueIdAt);
  }
  get protocol(): string {
    return this.source.stringAt(this.protocolAt);
  }
  get attributesText(): string {
    return (this.text ??= this.source.stringAt(this.attributesAt));
  }
  attributesHold(text: string): boolean {
    return this.text !== undefined ? this.text.includes(text) : this.source.holds(this.attributesAt, text);
  }
  get attributes(): Attributes {
    return (this.parsed ??= JSON.parse(this.attributesText) as Attributes);
  }
}

const NO_FIELDS: Uint8Array = new Uint8Array(0);

/** The range's rows as `query` reads them, each with its fields. */
export const selectPositionsWithFields = (driver: HistoryDriver, db: string, q: Omit<HistoryQuery, "limit" | "offset">): Promise<PositionWithFields[]> => selectStored(driver, db, q, true);

/** The range's rows as `query` reads them, without the fields (their texts decoded when read). */
export const selectStoredRows = (driver: HistoryDriver, db: string, q: Omit<HistoryQuery, "limit" | "offset">): Promise<StoredRow[]> => selectStored(driver, db, q, false);

async function selectStored(driver: HistoryDriver, db: string, q: Omit<HistoryQuery, "limit" | "offset">, withFields: boolean): Promise<PositionWithFields[]> {
  const { where, params } = positionFilter({ deviceId: q.deviceId, fromMs: q.fromMs, toMs: q.toMs });
  const bytes = await driver.selectRowBinary(
    `SELECT ${COLUMNS}${withFields ? `, ${POSITION_FIELDS}` : ""}
FROM ${db}.positions FINAL
${where}
ORDER BY fix_time, id`,
    params,
  );
  const r = new RowBinaryReader(bytes);
  const rows: PositionWithFields[] = [];
  while (!r.done) {
    const id = r.int64();
    const fixTime = r.int64();
    const serverTime = r.int64();
    const uniqueIdAt = r.skipString();
    const protocolAt = r.skipString();
    const latitude = r.float64();
    const longitude = r.float64();
    const altitude = r.float64();
    const course = r.float64();
    const speedKmh = r.float64();
    const distanceKm = r.float64();
    const valid = r.uint8() !== 0;
    const engineOn = r.uint8() !== 0;
    const attributesAt = r.skipString();
    let fields = NO_FIELDS;
    if (withFields) {
      const [start, end] = r.stringRange();
      fields = bytes.subarray(start, end);
    }
    rows.push(new StoredPosition(r, id, q.deviceId, fixTime, serverTime, uniqueIdAt, protocolAt, latitude, longitude, altitude, course, speedKmh, distanceKm, valid, engineOn, attributesAt, fields));
  }
  return rows;
}
