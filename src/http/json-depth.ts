// Measures how deeply a JSON text nests, in one pass and without recursion, so that a body
// nested thousands deep is refused before anything recursive (key conversion, stringify,
// GraphQL coercion) walks it and overflows the stack.

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when arrays and objects nest more than `maxDepth` levels anywhere in `text`. Brackets
 * inside strings do not count; the text need not be valid JSON (parsing comes after).
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** The same measure for a parsed value (an object or array is one level), walked without recursion. */
export function valueNestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [member, depth] = next;
    if (typeof member !== 'object' || member === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(member)) pending.push([child, depth + 1]);
  }
  return false;
}

export class JsonTooDeepError extends Error {
  override readonly name = 'JsonTooDeepError';
  constructor(readonly maxDepth: number) {
    super(`JSON nests more than ${maxDepth} levels deep`);
  }
}
