// The sandbox's notion of "now": wall time (or a frozen start instant) plus however far the
// caller has pushed it, so that month-long rules such as the reconnect window can be tested.

import { SandboxBadRequest } from '../http-kit.js';

export class SandboxClock {
  private offsetMs = 0;

  constructor(
    /** When given, time stands still at this instant except for `advance`. */
    private readonly frozenAt?: Date,
    private readonly wallClock: () => number = Date.now,
  ) {}

  now(): number {
    return (this.frozenAt ? this.frozenAt.getTime() : this.wallClock()) + this.offsetMs;
  }

  advance(milliseconds: number): void {
    // A carrier's clock never runs backwards; allowing it would let a disconnected line
    // slip back into its reconnect window.
    if (!Number.isFinite(milliseconds) || milliseconds < 0) {
      throw new SandboxBadRequest('The sandbox clock can only be moved forward by a finite amount');
    }
    this.offsetMs += milliseconds;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
