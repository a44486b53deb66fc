// Measures how deeply a JSON text nests and how many keys its objects hold, in
// one pass over the text and without recursion, so that a body nested thousands deep is refused
// before JSON.parse or anything recursive (key conversion, stringify, GraphQL coercion) walks it.

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COLON = 0x3a; // :

/**
 * Most keys one JSON object of a request may hold, REST or GraphQL (an input has a dozen fields
 * at most): an object of 60,000 keys costs 40–130 ms to parse (V8 builds it as a dictionary),
 * and more to walk.
 */
export const MAX_JSON_KEYS = 1_000;

/**
 * The first limit `text` goes over, scanning it once: 'depth' when arrays and objects nest more
 * than `maxDepth` levels, 'keys' when an object holds more than `maxKeys` keys (each key is
 * followed by a colon outside strings); null within both. The text need not be valid JSON.
 */
export function jsonOverLimits(text: string, maxDepth: number, maxKeys: number): 'depth' | 'keys' | null {
  // Keys counted so far in each open object, by depth (-1 for an array, and outside any).
  const keys = new Float64Array(Math.min(maxDepth, text.length) + 2);
  keys[0] = -1;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === COLON) {
      if (keys[depth]! >= 0 && ++keys[depth]! > maxKeys) return 'keys';
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > maxDepth) return 'depth';
      keys[depth] = code === OPEN_OBJECT ? 0 : -1;
    } else if ((code === CLOSE_OBJECT || code === CLOSE_ARRAY) && depth > 0) depth--;
  }
  return null;
}

export class JsonTooDeepError extends Error {
  override readonly name = 'JsonTooDeepError';
  constructor(readonly maxDepth: number) {
    super(`JSON nests more than ${maxDepth} levels deep`);
  }
}

export class JsonTooManyKeysError extends Error {
  override readonly name = 'JsonTooManyKeysError';
  constructor(readonly maxKeys: number) {
    super(`A JSON object has more than ${maxKeys} keys`);
  }
}
