// Waiting for something that happens in the background (a log line, a re-send, a replica).

/** Polls `check` until it returns true or `withinMs` passes; answers whether it became true. */
export async function eventually(check: () => Promise<boolean>, withinMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
