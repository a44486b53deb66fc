// The shared-read table on its own (the gateway's use of it: test/e2e/queries/read-coalescing.test.ts):
// which calls are one key, and that a write boundary or a settled call ends sharing.

import { describe, expect, it } from 'vitest';
import { canonicalJson, CarrierReadFlights } from '../../src/pipeline/read-flights.js';

/** A call that answers only when told to, and counts how often it was started. */
function pending() {
  let started = 0;
  let answer!: (value: string) => void;
  const call = () => {
    started += 1;
    return new Promise<string>((resolve) => (answer = resolve));
  };
  return { call, started: () => started, answer: (value: string) => answer(value) };
}

describe('canonicalJson', () => {
  it('is the same for inputs equal as data, whatever their member order', () => {
    expect(canonicalJson({ mdn: '1', sim: '2' })).toBe(canonicalJson({ sim: '2', mdn: '1' }));
    expect(canonicalJson({ a: [{ y: 1, x: 2 }], b: undefined })).toBe('{"a":[{"x":2,"y":1}]}');
  });

  it('tells apart inputs that differ in a member, a type or nesting', () => {
    const keys = [
      { mdn: '1' },
      { mdn: '1', sim: '2' },
      { mdn: 1 },
      { mdn: ['1'] },
      { mdn: null },
      { 'mdn":"1': '' },
    ].map(canonicalJson);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('CarrierReadFlights', () => {
  it('shares a call in flight for the same carrier, operation and input, and forgets it once settled', async () => {
    const flights = new CarrierReadFlights(true);
    const carrier = pending();
    const first = flights.share('321', 'usage', { mdn: '1' }, carrier.call);
    const second = flights.share('321', 'usage', { mdn: '1' }, carrier.call);
    expect([first.joined, second.joined]).toEqual([false, true]);
    expect(flights.share('carrier_b', 'usage', { mdn: '1' }, pending().call).joined).toBe(false);
    expect(flights.share('321', 'networkStatus', { mdn: '1' }, pending().call).joined).toBe(false);
    expect(flights.share('321', 'usage', { mdn: '2' }, pending().call).joined).toBe(false);
    carrier.answer('read');
    expect(await Promise.all([first.answer, second.answer])).toEqual(['read', 'read']);
    expect(carrier.started()).toBe(1);
    expect(flights.share('321', 'usage', { mdn: '1' }, carrier.call).joined).toBe(false);
    expect(carrier.started()).toBe(2);
  });

  it('starts a new call after a write boundary on that carrier, while the old one still answers its own', async () => {
    const flights = new CarrierReadFlights(true);
    const before = pending();
    const after = pending();
    const early = flights.share('321', 'usage', { mdn: '1' }, before.call);
    flights.writeBoundary('carrier_b');
    expect(flights.share('321', 'usage', { mdn: '1' }, before.call).joined).toBe(true);
    flights.writeBoundary('321');
    const late = flights.share('321', 'usage', { mdn: '1' }, after.call);
    expect(late.joined).toBe(false);
    // The old call settling does not forget the newer one.
    before.answer('before');
    expect(await early.answer).toBe('before');
    expect(flights.share('321', 'usage', { mdn: '1' }, after.call).joined).toBe(true);
    after.answer('after');
    expect(await late.answer).toBe('after');
    expect(flights.inFlight).toBe(0);
  });

  it('shares a failure with every joiner, then calls again', async () => {
    const flights = new CarrierReadFlights(true);
    let fail!: (error: Error) => void;
    const call = () => new Promise<string>((_, reject) => (fail = reject));
    const first = flights.share('321', 'usage', { mdn: '1' }, call);
    const second = flights.share('321', 'usage', { mdn: '1' }, call);
    const fault = new Error('down');
    fail(fault);
    await expect(first.answer).rejects.toBe(fault);
    await expect(second.answer).rejects.toBe(fault);
    expect(flights.share('321', 'usage', { mdn: '1' }, pending().call).joined).toBe(false);
  });

  it('shares nothing when turned off', () => {
    const flights = new CarrierReadFlights(false);
    const carrier = pending();
    flights.share('321', 'usage', { mdn: '1' }, carrier.call);
    expect(flights.share('321', 'usage', { mdn: '1' }, carrier.call).joined).toBe(false);
    expect(carrier.started()).toBe(2);
    expect(flights.inFlight).toBe(0);
  });
});
