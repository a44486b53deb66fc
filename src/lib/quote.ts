// Caller input echoed in an error message, cut to a bounded length: a refusal never carries
// more of the request back than a reader needs to recognise it.

/** How much of an echoed value is kept. */
export const QUOTE_MAX = 64;

/** `value` when at most `max` characters, else its first `max` characters and `…`. */
export function quote(value: string, max = QUOTE_MAX): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, max);
  // Never end on half of a surrogate pair (an emoji cut in two is not valid text).
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}
