// Shared fixtures for the sandbox core tests: a carrier on a frozen clock, fresh test SIMs,
// a one-call activation and a rejection matcher.

import { expect } from 'vitest';
import { CarrierRejection } from '../../../src/carriers/errors.js';
import type { ActivateRequest, CarrierId, E911Address } from '../../../src/carriers/types.js';
import { SandboxCarrier, type SandboxCarrierOptions } from '../../../src/sandbox/core/index.js';

export const START = new Date('2026-03-01T12:00:00Z');
export const START_STAMP = '2026-03-01 12:00:00';
export const DAY = 86_400_000;

export const ADDRESS: E911Address = { address1: '1 Main St', city: 'New York', state: 'NY', zipCode: '10001' };
export const BAD_ADDRESS: E911Address = { ...ADDRESS, address1: '1 Invalid St' };

export function newCarrier(options: Partial<SandboxCarrierOptions> & { carrier?: CarrierId } = {}): SandboxCarrier {
  return new SandboxCarrier({ carrier: '321', startTime: START, ...options });
}

let serial = 0;

/** A unique transaction id. */
export function tx(prefix = 'TX'): string {
  return `${prefix}_${String(++serial).padStart(12, '0')}`;
}

/** A fresh physical SIM: 8901 + 15 digits. */
export function physicalSim(): string {
  return `8901${String(++serial).padStart(15, '0')}`;
}

/** A fresh eSIM with an AVAILABLE profile: 89020 + 14 digits. */
export function esim(): string {
  return `89020${String(++serial).padStart(14, '0')}`;
}

export function activation(overrides: Partial<ActivateRequest> = {}): ActivateRequest {
  return {
    transactionId: tx('ACT'),
    sim: physicalSim(),
    carrierPlanId: 'PLUS5GB',
    zipCode: '10001',
    address: ADDRESS,
    isEsim: false,
    language: 'ENGL',
    ...overrides,
  };
}

/** Activates a line and returns its MDN and SIM. */
export async function activeLine(
  core: SandboxCarrier,
  overrides: Partial<ActivateRequest> = {},
): Promise<{ mdn: string; sim: string }> {
  const result = await core.activate(activation(overrides));
  return { mdn: result.mdn, sim: result.sim };
}

/** Asserts the promise rejects with a CarrierRejection of `code` (and `text` when given). */
export async function expectRejection(
  promise: Promise<unknown>,
  code: string,
  text?: string,
): Promise<CarrierRejection> {
  const error: unknown = await promise.then(
    () => new Error(`expected rejection ${code}, but the operation succeeded`),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CarrierRejection);
  const rejection = error as CarrierRejection;
  expect(rejection.code).toBe(code);
  if (text !== undefined) {
    expect(rejection.text).toBe(text);
    expect(rejection.message).toBe(`${text} (${code})`);
  }
  return rejection;
}
