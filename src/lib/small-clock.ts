// Expiry times of per-user cache entries as milliseconds since this module loaded. Such values
// stay small integers for 24 days, which V8 keeps inside the entry object; a Date.now() value
// does not fit one, so each entry of each cache carried a 16-byte number box beside it (~2.5 MB
// and 160,000 more objects for the collector to mark with 20,000 active users). Past 24 days of
// uptime the values are boxed again: slower to collect, never wrong.

const loadedAt = Date.now();

/** Now, in milliseconds since this module loaded (follows Date.now, fake timers included). */
export const smallNow = (): number => Date.now() - loadedAt;
