// What the benchmark runs on, written before the gateway starts: a plan, users with tokens
// (through the data layer, as the admin CLI does), and lines activated directly on the
// sandbox carrier with the project's own carrier adapter, then recorded in the line registry
// with their owner.

import { openData } from '../../src/app/data.js';
import { createCarrier321Adapter } from '../../src/carriers/carrier-321/adapter.js';
import type { ActivateRequest } from '../../src/carriers/types.js';
import type { Config } from '../../src/config.js';
import { LineRegistry } from '../../src/lines/registry.js';

const SEED_CONCURRENCY = 8;

export const BENCH_PLAN = { planId: 'BENCH', name: 'Bench plan', carrierPlanId: 'BASIC1GB' };
export const ADDRESS = { zipCode: '30301', address1: '1 Main St', city: 'Atlanta', state: 'GA' };

/** The nth physical test SIM of the sandbox (`8901…`, 20 digits); `block` keeps sets apart. */
export const simOf = (block: number, n: number): string =>
  `8901${String(block).padStart(4, '0')}${String(n).padStart(12, '0')}`;

export interface BenchUser {
  id: string;
  token: string;
  /** The one line this user owns. */
  mdn: string;
}

export interface Seeded {
  users: BenchUser[];
  /** Lines nobody owns (every user may read them): the dashboard screen's ten. */
  sharedMdns: string[];
}

/** The carrier activation the gateway sends for one SIM of the bench plan (see activate-sim.ts). */
export function activationRequest(sim: string, transactionId: string): ActivateRequest {
  return {
    sim,
    carrierPlanId: BENCH_PLAN.carrierPlanId,
    zipCode: ADDRESS.zipCode,
    address: { ...ADDRESS },
    isEsim: false,
    language: 'ENGL',
    transactionId,
  };
}

/** Carrier 321's adapter, as the gateway builds it, on the standalone sandbox. */
export const carrier321 = (config: Config) =>
  createCarrier321Adapter({
    baseUrl: config.CARRIER_321_URL!,
    apiKey: config.CARRIER_321_API_KEY!,
    timeoutMs: config.CARRIER_TIMEOUT_MS,
    retries: config.CARRIER_RETRIES,
  });

export async function seed(
  config: Config,
  options: { users: number; sharedLines: number; log: (line: string) => void },
): Promise<Seeded> {
  const data = await openData(config);
  const registry = new LineRegistry(data.db, data.invalidation);
  const carrier = carrier321(config);
  try {
    await data.directory.createPlan(BENCH_PLAN);
    const activate = (sim: string, index: number) => carrier.activate(activationRequest(sim, `BENCHSEED_${index}`));

    // Several users at a time: each waits on its carrier call while the next one's rows are
    // written (~4× faster than one at a time with 20,000 users; SQLite still writes one by one).
    const users: BenchUser[] = new Array<BenchUser>(options.users);
    let next = 0;
    const seedUsers = async () => {
      for (let i = next++; i < options.users; i = next++) {
        const user = await data.directory.createUser({ name: `bench${i}` });
        await data.directory.authorize(user.name, [BENCH_PLAN.planId]);
        const { token } = await data.tokens.issue(user, '2h');
        const line = await activate(simOf(1, i), i);
        await registry.record({ mdn: line.mdn, sim: line.sim, carrier: '321', owner: user.id });
        users[i] = { id: user.id, token, mdn: line.mdn };
        if ((i + 1) % 2000 === 0) options.log(`  seeded ${i + 1} users, tokens and lines`);
      }
    };
    await Promise.all(Array.from({ length: SEED_CONCURRENCY }, seedUsers));
    const sharedMdns: string[] = [];
    for (let i = 0; i < options.sharedLines; i++) {
      const line = await activate(simOf(2, i), options.users + i);
      await registry.record({ mdn: line.mdn, sim: line.sim, carrier: '321' });
      sharedMdns.push(line.mdn);
    }
    return { users, sharedMdns };
  } finally {
    await carrier.close();
    await data.close();
  }
}
