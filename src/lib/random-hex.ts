// Random identifiers from a pool of bytes drawn from the CSPRNG 4 KiB at a time, as node's own
// randomUUID pools its entropy: each `randomBytes` call is a trip into OpenSSL (~3 µs here),
// and a bulk job draws two ids per SIM (its transaction id and its line event's id).

import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `bytes` random bytes (at most 4,096) as lower-case hex: 2 × `bytes` characters. */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random bytes at a time`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
