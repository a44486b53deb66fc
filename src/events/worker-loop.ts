// A background loop of passes: at most one pass at a time, a wake-up during a pass runs another
// right after it, and between passes it sleeps for what the pass asked (capped at `idleMs`, so
// work another replica created is found too).

export class WorkerLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    /** One pass; resolves to how long to sleep before the next (null: `idleMs`). */
    private readonly pass: () => Promise<number | null>,
    private readonly idleMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.run();
  }

  /** Waits for the pass in flight; no pass starts afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    let sleepMs: number | null = null;
    do {
      this.again = false;
      try {
        sleepMs = await this.pass();
      } catch (error) {
        this.onError(error);
        sleepMs = null;
      }
    } while (this.again && !this.stopped);
    this.running = undefined;
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, Math.min(sleepMs ?? this.idleMs, this.idleMs)));
    this.timer.unref();
  }
}
