// Group commit: writes that arrive while one is being written are queued and written together
// next, each caller's promise settling with its own item. For callers that run many writes side
// by side; a lone write goes out at once.

export interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Queues items while a write is in flight and writes the queue at once when it ends: no timer,
 * so a lone item is written as soon as it arrives, and batches grow only with concurrency.
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  constructor(private readonly write: (batch: readonly Waiting<T>[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    // One turn of the event loop lets callers that are ready together join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      // `write` settles each item; an error it throws settles those it left (settling twice is a no-op).
      await this.write(batch).catch((error: unknown) => batch.forEach((waiting) => waiting.reject(error)));
    }
    this.writing = false;
  }
}

/** Writes a batch's items one by one, each settling its own caller (the fallback of a failed batch). */
export async function eachAlone<T>(batch: readonly Waiting<T>[], write: (item: T) => Promise<void>): Promise<void> {
  for (const waiting of batch) await write(waiting.item).then(waiting.resolve, waiting.reject);
}
