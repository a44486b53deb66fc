// A promise raced against a timer that is cleared once either settles (no timer left to hold the
// process or fire later).

/** What `attempt` settles to, or `fallback` once `timeoutMs` has passed first. */
export async function withDeadline<T>(attempt: Promise<T>, timeoutMs: number, fallback: T): Promise<T> {
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
