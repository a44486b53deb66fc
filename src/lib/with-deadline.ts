// A promise raced against a timer that is cleared once either settles (no timer left to hold the
// process or fire later).

/** Longest delay a Node timer takes; a longer one (Infinity included) would fire after 1 ms. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** What `attempt` settles to, or `fallback` once `timeoutMs` has passed first (never, for an infinite one). */
export async function withDeadline<T>(attempt: Promise<T>, timeoutMs: number, fallback: T): Promise<T> {
  if (timeoutMs > LONGEST_TIMER_MS) return attempt;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
  });
  try {
    return await Promise.race([attempt, expired]);
  } finally {
    clearTimeout(timer);
  }
}
