// How many SQL statements the gateway has sent so far, from its own counter on /metrics
// (line_gateway_db_queries_total, which leaves out SQLite's change-watch poll): read between
// runs, it shows whether a scenario's requests touch the database at all.

import { BENCH_METRICS_TOKEN } from './processes.js';

export async function databaseStatements(base: string): Promise<number> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  const text = await response.text();
  const count = /^line_gateway_db_queries_total (\d+(?:\.\d+)?)$/m.exec(text)?.[1];
  if (!response.ok || count === undefined)
    throw new Error(`/metrics answered ${response.status} without the statement count`);
  return Number(count);
}
