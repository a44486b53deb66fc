// A job's SIMs finish out of order (several are in flight at once), but their entries are
// written in position order only, a gap-free prefix, so that a page of results never skips a SIM
// still in flight; those done beyond a gap wait for it. Writes go one at a time, in batches of
// what gathered since the last (every WRITE_EVERY_ITEMS SIMs, or WRITE_EVERY_MS).

import type { ItemAnswer } from './activate-item.js';
import type { ItemOutcome, PendingItem } from './job-store.js';

const WRITE_EVERY_ITEMS = 50;
const WRITE_EVERY_MS = 100;

export class OrderedOutcomes {
  private readonly done = new Map<number, ItemAnswer>();
  private unwritten: ItemOutcome[] = [];
  private written = 0;
  private writtenAt = Date.now();
  private writing = Promise.resolve();

  constructor(
    private readonly items: readonly PendingItem[],
    /** Writes one batch; the next waits for it. */
    private readonly writeBatch: (batch: ItemOutcome[]) => Promise<void>,
  ) {}

  /** The answer of the SIM at `index`; resolves once a write it made due is done. */
  async add(index: number, answer: ItemAnswer): Promise<void> {
    this.done.set(index, answer);
    for (let next = this.done.get(this.written); next; next = this.done.get(this.written)) {
      this.done.delete(this.written);
      this.unwritten.push({ item: this.items[this.written]!, ...next });
      this.written += 1;
    }
    const due =
      this.unwritten.length >= WRITE_EVERY_ITEMS ||
      (this.unwritten.length > 0 && Date.now() - this.writtenAt >= WRITE_EVERY_MS);
    if (due) await this.write();
  }

  /**
   * Writes what is left. `beyondGaps`: also the entries done after a SIM that never finished (a
   * job that ends here keeps every entry it has; one left for another run leaves those to be
   * read from the transaction log again).
   */
  async flush(beyondGaps: boolean): Promise<void> {
    if (beyondGaps)
      for (const [index, answer] of [...this.done].sort(([a], [b]) => a - b))
        this.unwritten.push({ item: this.items[index]!, ...answer });
    this.done.clear();
    await this.write();
  }

  private write(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.unwritten.length === 0) return;
      const batch = this.unwritten;
      this.unwritten = [];
      this.writtenAt = Date.now();
      await this.writeBatch(batch);
    });
    return this.writing;
  }
}
