// What one carrier call costs the process that makes it, measured beside the scenarios so the
// result file says how much of a `usage` request is the carrier client. The same GET is sent
// three ways, in interleaved rounds, each on a pool of its own made as the client makes its own
// (carrierAgent):
//  - through the project's client (src/carriers/http-client.ts: its wire, span and outcome
//    around ky, with our `fetch` under ky);
//  - through ky alone: the client's own ky instance for reads (carrierKy), over the same `fetch`
//    (src/carriers/agent-fetch.ts);
//  - by that `fetch`'s dispatch alone (src/carriers/text-request.ts), nothing above it.
// Each way parses the answer's JSON. The second minus the third is ky's per-call machinery (its
// option merge, AbortController, WHATWG Request and clone, timeout race), which the product
// owner's choice of ky puts on every carrier call (docs/performance.md, "Carrier calls"); the
// first minus the second is the client's own. CPU is this process's (process.cpuUsage), the full
// collection of each way's garbage included: the carrier's side is not in it.

import { agentFetch, CarrierAnswer, type WireOptions } from '../../src/carriers/agent-fetch.js';
import { carrierAgent, carrierKy, createCarrierHttpClient } from '../../src/carriers/http-client.js';
import { requestText } from '../../src/carriers/text-request.js';
import { median } from './load.js';

export interface CarrierCallTarget {
  baseUrl: string;
  /** Sent on every call (the carrier's credentials); never reported. */
  headers: Record<string, string>;
  /** Below the base URL, without a leading slash. */
  path: string;
  timeoutMs: number;
  /** The gateway's setting: no call here is retried, but ky's options are the client's. */
  retries: number;
}

/** µs of CPU a call, one way each. */
export interface CallCosts {
  client: number;
  ky: number;
  dispatch: number;
}

export interface CarrierClientCost extends CallCosts {
  calls: number;
  inFlight: number;
  /** Each way's median over the rounds is the figure above. */
  rounds: CallCosts[];
}

type Call = () => Promise<number>;

/**
 * A full collection and the finalizers it queues, where the process can ask for one
 * (`node --expose-gc`, as `npm run bench` runs): ky's Requests are registered for finalization
 * and die only in full collections, so without this each way would pay for the garbage of the
 * way before it.
 */
async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  // Finalization callbacks run as tasks of their own after the collection.
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `calls` calls, `inFlight` at a time, then collects their garbage; µs of this process's CPU
 * a call, less what a collection with nothing to collect costs. Every answer must be a 2xx.
 */
async function cpuPerCall(call: Call, calls: number, inFlight: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const status = await call();
      if (status < 200 || status >= 300) throw new Error(`carrier call answered ${status}`);
    }
  };
  await collectGarbage();
  const idle = process.cpuUsage();
  await collectGarbage();
  const { user: idleUser, system: idleSystem } = process.cpuUsage(idle);
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: inFlight }, worker));
  await collectGarbage();
  const used = process.cpuUsage(before);
  return Math.max(0, used.user + used.system - idleUser - idleSystem) / calls;
}

export async function measureCarrierClientCost(
  target: CarrierCallTarget,
  options: { calls: number; inFlight: number; rounds: number },
): Promise<CarrierClientCost> {
  const base = new URL(target.baseUrl);
  const path = `${base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`}${target.path}`;
  const headers = Object.entries(target.headers).flatMap(([name, value]) => [name.toLowerCase(), value]);
  const client = createCarrierHttpClient({
    carrier: '321',
    baseUrl: target.baseUrl,
    headers: target.headers,
    timeoutMs: target.timeoutMs,
    retries: target.retries,
  });
  const kyAgent = carrierAgent(target.timeoutMs);
  // The client's own ky instance for reads (its retry policy and hook), over the same `fetch`.
  const kyAlone = carrierKy(target, agentFetch(kyAgent, base.origin)).retrying;
  const dispatchAgent = carrierAgent(target.timeoutMs);
  const neverAborted = new AbortController().signal;

  const ways: Record<keyof CallCosts, Call> = {
    client: async () => (await client.send({ method: 'GET', path: target.path })).status,
    ky: async () => {
      const wire: WireOptions = {
        carrierWire: { method: 'GET', path, headers, body: undefined, maybeDelivered: false },
      };
      let answer: unknown;
      try {
        answer = await kyAlone(target.path, { method: 'GET', ...wire });
      } catch (error) {
        answer = (error as { response?: unknown }).response;
      }
      if (!(answer instanceof CarrierAnswer)) throw new Error('ky answered something else than its fetch');
      JSON.parse(answer.text);
      return answer.status;
    },
    dispatch: async () => {
      const answer = await requestText(
        dispatchAgent,
        { origin: base.origin, path, method: 'GET', headers },
        neverAborted,
      );
      JSON.parse(answer.text);
      return answer.status;
    },
  };
  const names = Object.keys(ways) as (keyof CallCosts)[];
  // Round r starts with way r (mod 3): no way is always the one measured first, or after another.
  const round = async (index: number): Promise<CallCosts> => {
    const costs = {} as CallCosts;
    for (let step = 0; step < names.length; step++) {
      const name = names[(index + step) % names.length]!;
      costs[name] = await cpuPerCall(ways[name], options.calls, options.inFlight);
    }
    return costs;
  };
  try {
    await round(0); // warm-up: every way compiled and its connections open before anything counts
    const rounds: CallCosts[] = [];
    for (let index = 0; index < options.rounds; index++) rounds.push(await round(index));
    const medianOf = (name: keyof CallCosts) => median(rounds.map((r) => r[name]));
    return {
      client: medianOf('client'),
      ky: medianOf('ky'),
      dispatch: medianOf('dispatch'),
      calls: options.calls,
      inFlight: options.inFlight,
      rounds,
    };
  } finally {
    await Promise.all([client.close(), kyAgent.close(), dispatchAgent.close()]);
  }
}
