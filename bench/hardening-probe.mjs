// The hardening figures of issue 7, measured against the real gateway as its own process:
// a 20,000-alias anonymous GraphQL request, 5,000 aliases of transaction(id) with a token, a
// 60 KB adversarial email, /healthz latency meanwhile, and the recovery time of a timed-out
// activation. Usage: node bench/hardening-probe.mjs [checkout=.] (run it on an older commit's
// checkout too, to compare; the gateway is started with `npx tsx src/main.ts` so both work).
import { sourceGateway } from './support/source-gateway.mjs';

const root = process.argv[2] ?? '.';
const gateway = sourceGateway(root, {
  name: 'probe',
  portBase: 4600,
  settings: { CARRIER_TIMEOUT_MS: '400', CARRIER_RETRIES: '0' },
});
const { admin, base } = gateway;
admin('user', 'create', 'alice', '--superuser');
admin('plan', 'create', 'BASIC', '--name', 'Basic', '--carrier-plan-id', 'BASIC1GB', '--price', '15');
admin('plan', 'authorize', 'alice', 'BASIC');
const token = gateway.token('alice');
const SANDBOX_LINE = 'sandbox carriers running';
const running = await gateway.start({ keepLog: true, ready: (log) => log.includes(SANDBOX_LINE) });
const urls = JSON.parse(
  running
    .log()
    .split('\n')
    .find((line) => line.includes(SANDBOX_LINE)),
);
const ms = (t) => Math.round(performance.now() - t);

async function withHealthz(label, work) {
  await fetch(`${base}/healthz`).then((r) => r.text()); // prime /readyz's short cache
  let worst = 0,
    polls = 0,
    stop = false;
  const poller = (async () => {
    while (!stop) {
      const t = performance.now();
      await fetch(`${base}/healthz`)
        .then((r) => r.text())
        .catch((e) => console.log('healthz error', e.cause?.code ?? e.message));
      worst = Math.max(worst, ms(t));
      polls++;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const t = performance.now();
  const status = await work();
  const took = ms(t);
  stop = true;
  await poller;
  console.log(`${label}: ${took} ms, status ${status}; /healthz worst ${worst} ms over ${polls} polls`);
}
const aliases = (n, field) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
await withHealthz(
  '20,000-alias anonymous usage',
  async () =>
    (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: aliases(20000, 'usage(mdn: "3215550001") { status }') }),
      })
    ).status,
);
await withHealthz(
  '5,000-alias transaction(id) with token',
  async () =>
    (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: aliases(5000, 'transaction(id: "X") { id }') }),
      })
    ).status,
);
const email = 'x@' + 'a.'.repeat(30000) + '@';
await withHealthz(
  `60 KB email (${email.length} chars)`,
  async () =>
    (
      await fetch(`${base}/sim/activate/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          sim: '89010000000000000777',
          plan_id: 'BASIC',
          zip_code: '30301',
          address1: '1 Main St',
          city: 'Atlanta',
          state: 'GA',
          is_esim: 'Y',
          email,
        }),
      })
    ).status,
);

// Recovery of a timed-out activation: the sandbox answers after the gateway gave up.
await fetch(`${urls['321']}/_sandbox/faults`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ latency_ms: 800 }),
});
const t0 = performance.now();
const act = await fetch(`${base}/sim/activate/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({
    sim: '89010000000000000999',
    plan_id: 'BASIC',
    zip_code: '30301',
    address1: '1 Main St',
    city: 'Atlanta',
    state: 'GA',
    transaction_id: 'PROBE_RECOVERY_1',
  }),
});
console.log(`timed-out activation: ${act.status} after ${ms(t0)} ms`);
await fetch(`${urls['321']}/_sandbox/faults`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ latency_ms: 0 }),
});
const t1 = performance.now();
let final = null;
let last = null;
while (ms(t1) < 30000) {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ transaction(id: "PROBE_RECOVERY_1") { status response } }' }),
  });
  const body = await r.json();
  last = body;
  const status = body.data?.transaction?.status;
  if (/^(success|failure)$/i.test(status ?? '')) {
    final = status;
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
console.log(
  final ? `recovered as ${final} ${ms(t1)} ms after the 504` : 'not recovered within 30 s after the 504',
  JSON.stringify(last).slice(0, 400),
);
running.stop();
console.log(
  running
    .log()
    .split('\n')
    .filter((l) => /error|warn/.test(l))
    .slice(0, 5)
    .map((l) => l.slice(0, 300))
    .join('\n'),
);
setTimeout(() => process.exit(0), 1500);
