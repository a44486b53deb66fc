// The time shapes carriers speak: `YYYY-MM-DD HH:MM:SS` (UTC) in payloads, ISO 8601 on SIM
// details, and the lenient parsing of caller-supplied time windows.

export const SECOND_MS = 1000;
export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export function carrierTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD`, UTC. */
export function carrierDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `2026-01-02T03:04:05Z`. */
export function isoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** `2026-01-02T03:04:05+00:00`. */
export function isoWithOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

const CARRIER_FORM = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
const ISO_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Milliseconds for `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` (both UTC) or an ISO 8601 instant with
 * a zone; null for anything else, including impossible dates such as February 30th.
 */
export function parseTimestamp(text: string): number | null {
  const carrier = CARRIER_FORM.exec(text);
  if (carrier) {
    const [year, month, day, hour, minute, second] = carrier.slice(1).map((part) => Number(part ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    // Date.UTC rolls over out-of-range parts; a round trip catches them.
    const back = new Date(ms);
    const exact =
      back.getUTCFullYear() === year &&
      back.getUTCMonth() === month - 1 &&
      back.getUTCDate() === day &&
      back.getUTCHours() === hour &&
      back.getUTCMinutes() === minute &&
      back.getUTCSeconds() === second;
    return exact ? ms : null;
  }
  if (ISO_FORM.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** End of the given `YYYY-MM-DD` day (UTC), or null when it is not such a date. */
export function endOfDay(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const start = parseTimestamp(date);
  return start === null ? null : start + DAY_MS - SECOND_MS;
}
