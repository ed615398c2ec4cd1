import { AppError } from '../../errors.js';
import { signParams, verifyParams } from '../../storage/signed-params.js';

/** Where the next response of a stored map starts: the URL index and its byte offset in the list. */
export interface MapPosition {
  mapId: string;
  /** Index of the first URL of the next response. */
  index: number;
  /** Byte offset of that URL's line in the stored list. */
  byte: number;
}

const SCOPE = 'map-cursor';
const SHAPE = /^(map_[a-z0-9]{1,80})\.(\d{1,15})\.(\d{1,15})\.([0-9a-f]{64})$/;

/**
 * Map cursors: `<map id>.<index>.<byte offset>.<HMAC>`. The signature (`signParams`, scope
 * `map-cursor`) makes a cursor tamper-proof, so a cursor can carry the byte offset the next
 * read starts at and the service trusts it without a lookup table. Which team may use it is
 * decided by the map it names, not by the cursor.
 *
 * @example
 * const cursors = createMapCursors(secret);
 * const cursor = cursors.issue({ mapId: 'map_abc', index: 5000, byte: 412_345 });
 * cursors.read(cursor); // { mapId: 'map_abc', index: 5000, byte: 412345 }
 * cursors.read(cursor.replace('5000', '6000')); // throws 400 validation_error naming `cursor`
 */
export interface MapCursors {
  issue(position: MapPosition): string;
  /** The position a cursor names; a 400 `validation_error` naming `field` for anything this service did not issue. */
  read(cursor: string, field?: string): MapPosition;
}

export function createMapCursors(secret: string): MapCursors {
  const params = (p: MapPosition) => ({ map: p.mapId, index: String(p.index), byte: String(p.byte) });
  return {
    issue(position) {
      const signature = signParams(secret, SCOPE, params(position));
      return `${position.mapId}.${position.index}.${position.byte}.${signature}`;
    },
    read(cursor, field = 'cursor') {
      const match = SHAPE.exec(cursor.trim());
      const position: MapPosition | null = match
        ? { mapId: match[1]!, index: Number(match[2]), byte: Number(match[3]) }
        : null;
      if (position === null || !verifyParams(secret, SCOPE, params(position), match![4]!)) {
        throw new AppError(
          'validation',
          'validation_error',
          `${field}: not a cursor this service issued (it is altered, truncated or from elsewhere); send the cursor of a previous map response unchanged`,
          { metadata: { field } },
        );
      }
      return position;
    },
  };
}
