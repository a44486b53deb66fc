// Lines for end-to-end tests, activated straight on a sandbox carrier (as if activated before
// the test) and, by default, recorded in the gateway's line registry as an activation through
// the gateway would record them.

import type { CarrierId } from '../../src/carriers/types.js';
import type { TestGateway } from './gateway.js';

export interface SeededLine {
  mdn: string;
  sim: string;
  carrier: CarrierId;
}

export const SEED_ADDRESS = { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' };

let counter = 0;
const runStamp = `${String(Date.now()).slice(-7)}${String(process.pid % 1000).padStart(3, '0')}`;

/**
 * A fresh 20-digit ICCID that no other test in the run uses, starting with a sandbox prefix
 * (8901 physical, 8902 eSIM, 89029 downloaded eSIM, 8903/8999 foreign). The digit after the
 * prefix is always 0, so an eSIM prefix can never turn into 89029 by chance.
 */
export function freshSim(prefix = '8901'): string {
  counter += 1;
  const unique = `${runStamp}${String(counter).padStart(6, '0')}`;
  return `${prefix}0${unique.slice(-(19 - prefix.length))}`;
}

/** An ACTIVE line on `carrier` (default 321) with base plan `carrierPlanId` (default BASIC1GB). */
export async function seedLine(
  gateway: TestGateway,
  options: { carrier?: CarrierId; carrierPlanId?: string; register?: boolean } = {},
): Promise<SeededLine> {
  const carrier = options.carrier ?? '321';
  const sim = freshSim();
  const result = await gateway.sandboxes.cores[carrier].activate({
    sim,
    carrierPlanId: options.carrierPlanId ?? 'BASIC1GB',
    zipCode: SEED_ADDRESS.zipCode,
    address: SEED_ADDRESS,
    isEsim: false,
    language: 'ENGL',
    transactionId: `SEED_${sim}`,
  });
  if (options.register ?? true) await gateway.app.services.lines.record({ mdn: result.mdn, sim, carrier });
  return { mdn: result.mdn, sim, carrier };
}

/**
 * An ACTIVE line on the carrier that the gateway's registry does not know (routing then falls
 * back to the user's preference and the default carrier; nobody owns it).
 */
export function seedUnknownLine(
  gateway: TestGateway,
  options: { carrier?: CarrierId; carrierPlanId?: string } = {},
): Promise<SeededLine> {
  return seedLine(gateway, { ...options, register: false });
}

/** Disconnects a seeded line on its carrier (its number then answers 915 to most operations). */
export async function disconnectSeeded(gateway: TestGateway, line: SeededLine): Promise<void> {
  await gateway.sandboxes.cores[line.carrier].disconnect({
    mdn: line.mdn,
    sim: line.sim,
    transactionId: `SEED_DISC_${line.sim}`,
  });
}

/** A seeded line, then disconnected on its carrier. */
export async function seedDisconnectedLine(
  gateway: TestGateway,
  options: { carrier?: CarrierId; register?: boolean } = {},
): Promise<SeededLine> {
  const line = await seedLine(gateway, options);
  await disconnectSeeded(gateway, line);
  return line;
}
