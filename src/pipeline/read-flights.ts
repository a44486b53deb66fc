// Identical carrier reads in flight at once share one carrier call, across requests, per
// replica ("singleflight"): a dashboard watched by many operators asks a carrier the same
// question many times at once. Only rows marked `coalesce` take part: reads whose answer depends
// on nothing but the carrier and the input (never the caller) and that record nothing. Every
// request still takes all of its own steps (auth, rate limit, ownership, routing…) before it
// joins, and turns the shared answer or fault into its own outcome, metrics and errors.
//
// Nothing is kept once a call settles: an answer is never older than a call that was in flight
// when the request joined. Read-your-writes: a write through runCarrierHandler moves its
// carrier's generation when it starts and when it ends, and a flight is joined only by reads
// seeing the generation it started in. So a read that joins after a write on that carrier began
// (or ended) never gets an answer read before it. The generation is per carrier, not per line:
// the reads are keyed by line, SIM, IMEI, ZIP or account, and a write naming one line changes
// answers keyed by others (a SIM swap, both SIMs' details), so mapping writes to the reads they
// affect would be a source of stale answers; the price is one extra carrier call per distinct
// read in flight when a write on that carrier starts or ends.

import type { CarrierId } from '../carriers/types.js';

interface Flight {
  generation: number;
  answer: Promise<unknown>;
}

export interface SharedRead<T> {
  answer: Promise<T>;
  /** True when the call was already in flight for another request. */
  joined: boolean;
}

export class CarrierReadFlights {
  private readonly flights = new Map<string, Flight>();
  private readonly generations = new Map<CarrierId, number>();

  constructor(readonly enabled: boolean) {}

  /** A write to `carrierId` starts or ends: reads from now on do not join the calls before it. */
  writeBoundary(carrierId: CarrierId): void {
    this.generations.set(carrierId, (this.generations.get(carrierId) ?? 0) + 1);
  }

  /**
   * The answer of the identical read in flight (same carrier, operation and input, same write
   * generation), or of `call` started now and shared until it settles. The caller's own abort
   * or timeout cannot cancel a shared call: it only stops waiting for it.
   */
  share<T>(carrierId: CarrierId, operation: string, input: unknown, call: () => Promise<T>): SharedRead<T> {
    if (!this.enabled) return { answer: call(), joined: false };
    const key = `${carrierId}\u0000${operation}\u0000${canonicalJson(input)}`;
    const generation = this.generations.get(carrierId) ?? 0;
    const current = this.flights.get(key);
    if (current && current.generation === generation) return { answer: current.answer as Promise<T>, joined: true };
    const answer = call();
    const flight: Flight = { generation, answer };
    // An older generation's flight still answers its own joiners; the key now names this one.
    this.flights.set(key, flight);
    const forget = () => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    };
    answer.then(forget, forget);
    return { answer, joined: false };
  }

  /** Reads in flight now (tests and diagnostics). */
  get inFlight(): number {
    return this.flights.size;
  }
}

/**
 * JSON with object members in sorted order, so that inputs equal as data share a key whatever
 * order their members were built in (validation keeps the caller's order for unknown shapes).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
