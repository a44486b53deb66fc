// Bulk activation of many SIMs through the gateway, timed. The one place that chooses how:
// a durable GraphQL job (`startBulkActivation`) when the schema offers one, else REST
// `POST /sim/activate/bulk/` in batches of 100, one after the other.

import { performance } from 'node:perf_hooks';
import type { Config } from '../../src/config.js';
import { activationRequest, ADDRESS, BENCH_PLAN, carrier321 } from './seed.js';

const REST_BATCH = 100;

export interface BulkRun {
  driver: string;
  ms: number;
  activated: number;
  note?: string;
}

/** Does the gateway's schema have this mutation? (Introspection is open to a valid token.) */
async function hasMutation(base: string, token: string, name: string): Promise<boolean> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __type(name: "Mutation") { fields { name } } }' }),
  });
  const body = (await response.json()) as { data?: { __type?: { fields: { name: string }[] } } };
  return body.data?.__type?.fields.some((field) => field.name === name) ?? false;
}

/** `tokens[k]` sends the kth batch: the bulk endpoint allows each user 10 batches an hour. */
async function restBulk(base: string, tokens: string[], sims: string[]): Promise<BulkRun> {
  let activated = 0;
  const started = performance.now();
  for (let k = 0; k * REST_BATCH < sims.length; k++) {
    const activations = sims
      .slice(k * REST_BATCH, (k + 1) * REST_BATCH)
      .map((sim) => ({ sim, plan_id: BENCH_PLAN.planId, zip_code: ADDRESS.zipCode, ...ADDRESS }));
    const response = await fetch(`${base}/sim/activate/bulk/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[k % tokens.length]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ activations }),
    });
    const body = (await response.json()) as { processed?: number };
    if (response.status !== 200)
      throw new Error(`bulk activation answered ${response.status}: ${JSON.stringify(body)}`);
    activated += body.processed ?? 0;
  }
  return {
    driver: `REST POST /sim/activate/bulk/ × ${Math.ceil(sims.length / REST_BATCH)}`,
    ms: performance.now() - started,
    activated,
  };
}

async function graphql<T>(base: string, token: string, query: string, variables: unknown): Promise<T> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data || body.errors) throw new Error(`GraphQL answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * Follows the job's progress stream (GraphQL over SSE, as a client would) until it ends, which
 * it does once the job has finished; polling would spend the query's per-minute budget.
 */
async function untilFinished(base: string, token: string, jobId: string): Promise<void> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      query: 'subscription ($id: String!) { bulkActivationProgress(id: $id) { status } }',
      variables: { id: jobId },
    }),
  });
  if (!response.ok || !response.body) throw new Error(`progress stream answered ${response.status}`);
  const reader = response.body.getReader();
  while (!(await reader.read()).done);
}

/** One durable job of every SIM: started, then followed until it has finished. */
async function jobBulk(base: string, token: string, sims: string[]): Promise<BulkRun> {
  const activations = sims.map((sim) => ({ sim, planId: BENCH_PLAN.planId, ...ADDRESS }));
  const started = performance.now();
  const { startBulkActivation: job } = await graphql<{ startBulkActivation: { id: string } }>(
    base,
    token,
    'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
    { input: { activations } },
  );
  await untilFinished(base, token, job.id);
  const ms = performance.now() - started;
  const { bulkActivation: finished } = await graphql<{ bulkActivation: { status: string; succeeded: number } }>(
    base,
    token,
    'query ($id: String!) { bulkActivation(id: $id, first: 1) { status succeeded } }',
    { id: job.id },
  );
  if (finished.status !== 'COMPLETED') throw new Error(`bulk activation job ended ${finished.status}`);
  return { driver: `GraphQL startBulkActivation (one job of ${sims.length})`, ms, activated: finished.succeeded };
}

export async function bulkActivate(base: string, tokens: string[], sims: string[]): Promise<BulkRun> {
  if (await hasMutation(base, tokens[0]!, 'startBulkActivation')) return jobBulk(base, tokens[0]!, sims);
  return restBulk(base, tokens, sims);
}

/**
 * The baseline: the carrier activations a bulk activation makes, made directly with the
 * project's adapter, one after the other (as the gateway runs a batch); the sum of their times.
 */
export async function directActivations(config: Config, sims: string[]): Promise<number> {
  const carrier = carrier321(config);
  try {
    const started = performance.now();
    for (const [index, sim] of sims.entries()) await carrier.activate(activationRequest(sim, `BENCHDIRECT_${index}`));
    return performance.now() - started;
  } finally {
    await carrier.close();
  }
}
