// What pathological bodies cost the gateway, measured against the real gateway as its own
// process. GraphQL (`graphql`): the audit's body (variables nested 499,000 deep, 998 KB) as
// JSON, application/graphql+json and a form, 249,000 empty objects, 60,000 keys (top level, in
// `variables`, in an input object). REST (`rest`): flat bodies of ~1 MB on write paths (249,000
// empty objects or 499,000 numbers as a list field, as a string field, as an unknown field;
// 60,000 keys). Each without a token and with one (REST: a user of its own per case, so that no
// case meets the operation's rate limit). For each: the gateway's CPU per request
// (process_cpu_seconds_total from /metrics, around REPS requests sent one after the other, less
// what the two scrapes cost) and the answer's status; then (`graphql`) how long `GET /livez`
// takes from another client while 8 anonymous audit bodies are in flight.
// Usage: node bench/body-cost.mjs [checkout=.] [reps=5] [suites=graphql,rest]   (REST: reps at
// most 9, as bulk activation allows 10 an hour with the warm-up; more are answered 429.)
// (bench/graphql-body-cost.mjs runs the `graphql` suite.) Run it on an older commit's checkout
// too, to compare: `git archive <commit> | tar -x -C dir`, with node_modules linked and
// src/generated copied; the gateway is started with `npx tsx src/main.ts`, so both work.
import { sourceGateway } from './support/source-gateway.mjs';

const root = process.argv[2] ?? '.';
const reps = Number(process.argv[3] ?? 5);
const suites = new Set((process.argv[4] ?? 'graphql,rest').split(','));
const METRICS_TOKEN = 'body-cost-metrics-token-0123456789abcdef';
const gateway = sourceGateway(root, { name: 'body-cost', portBase: 4900, settings: { METRICS_TOKEN } });
/** A new user's token. */
const newToken = (name) => {
  gateway.admin('user', 'create', name);
  return gateway.token(name);
};
const token = newToken('alice');
const running = await gateway.start();
const { base } = gateway;

async function cpuSeconds() {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)[1]);
}

const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const keys = (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;
const ME = '{me{name}}';
const AUDIT = `{"a":${deep(499_000)}}`;
const json = (variables, query = ME) => `{"query":${JSON.stringify(query)},"variables":${variables}}`;
const MUTATION = 'mutation($i: SuspendLineInput!){suspendLine(input:$i){status}}';
const objects = `[${Array(249_000).fill('{}').join(',')}]`;
const zeros = `[${Array(499_000).fill('0').join(',')}]`;
// [name, path, content type, body]; a GraphQL case's path is /graphql.
const graphqlCases = [
  ['audit body, nested 499,000 deep', 'application/json', json(AUDIT)],
  ['audit body', 'application/graphql+json', json(AUDIT)],
  // The JSON text unencoded in the form, as URLSearchParams reads it.
  ['audit body', 'application/x-www-form-urlencoded', `query=${encodeURIComponent(ME)}&variables=${AUDIT}`],
  ['249,000 empty objects', 'application/json', json(`{"a":${objects}}`)],
  ['499,000 zeros', 'application/json', json(`{"a":${zeros}}`)],
  ['60,000 top-level keys', 'application/json', `{"query":"${ME}",${keys(60_000).slice(1)}`],
  ['60,000 keys in variables', 'application/json', json(keys(60_000))],
  [
    '60,000 keys in an input object',
    'application/json',
    json(`{"i":${keys(60_000).slice(0, -1)},"mdn":"3215550001"}}`, MUTATION),
  ],
  ['a small query (control)', 'application/json', json('{}')],
].map(([name, contentType, body]) => [name, '/graphql', contentType, body]);
const MDN = '"mdn":"3215550001"';
const restCases = [
  ['249,000 empty objects as activations', '/sim/activate/bulk/', `{"activations":${objects}}`],
  ['499,000 zeros as activations', '/sim/activate/bulk/', `{"activations":${zeros}}`],
  ['249,000 empty objects as sim', '/sim/activate/', `{"sim":${objects}}`],
  ['499,000 zeros in an unknown field', '/sim/activate/', `{"a":${zeros}}`],
  ['499,000 zeros as service', '/sim/suspend/', `{${MDN},"service":${zeros}}`],
  ['499,000 zeros as language', '/sim/voicemail/language/', `{${MDN},"language":${zeros}}`],
  ['60,000 top-level keys', '/sim/suspend/', `{${MDN},${keys(60_000).slice(1)}`],
  ['a bad service (control)', '/sim/suspend/', `{${MDN},"service":"ALL"}`],
].map(([name, path, body]) => [name, path, 'application/json', body]);
const cases = [...(suites.has('graphql') ? graphqlCases : []), ...(suites.has('rest') ? restCases : [])];

const send = (path, contentType, body, bearer) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body,
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
// A connection whose refused body the gateway left unread is closed after the answer; when the
// client had already sent the next request on it, that request is sent again on a new one.
const post = (...args) => send(...args).catch(() => send(...args));

// What a pair of scrapes costs by itself, taken off every figure.
let scrape = Infinity;
for (let i = 0; i < 5; i++) {
  const a = await cpuSeconds();
  scrape = Math.min(scrape, (await cpuSeconds()) - a);
}
console.log(`checkout ${root}, ${reps} requests per case; gateway CPU per request (ms):`);
let users = 0;
for (const [name, path, contentType, body] of cases) {
  for (const withToken of [false, true]) {
    // A REST write spends its operation's rate limit (bulk activation: 10 an hour) before its body is read.
    const bearer = withToken ? (path === '/graphql' ? token : newToken(`rest${++users}`)) : undefined;
    await post(path, contentType, body, bearer); // warm-up
    const before = await cpuSeconds();
    let answer;
    for (let i = 0; i < reps; i++) answer = await post(path, contentType, body, bearer);
    const ms = (((await cpuSeconds()) - before - scrape) * 1000) / reps;
    const code =
      /"code":"(\w+)"/.exec(answer.text)?.[1] ??
      (answer.text.includes('"data"') ? 'data' : `${answer.text.slice(0, 60)}${answer.text.length > 60 ? '…' : ''}`);
    const where = path === '/graphql' ? contentType : `POST ${path}`;
    console.log(
      `  ${`${name} (${where}, ${(body.length / 1000).toFixed(0)} KB)`.padEnd(92)} ${(withToken ? 'token' : 'anonymous').padEnd(9)} ${ms.toFixed(1).padStart(7)}  ${answer.status} ${code}`,
    );
  }
}
// GET /livez from another client while 8 anonymous audit bodies are answered.
const livez = async () => {
  const t = performance.now();
  await (await fetch(`${base}/livez`)).text();
  return performance.now() - t;
};
if (suites.has('graphql')) {
  const quiet = [];
  for (let i = 0; i < 10; i++) quiet.push(await livez());
  const body = json(AUDIT);
  const load = Promise.all(Array.from({ length: 8 }, () => post('/graphql', 'application/json', body)));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const loaded = await livez();
  await load;
  console.log(
    `GET /livez: ${Math.max(...quiet).toFixed(0)} ms at most when idle, ${loaded.toFixed(0)} ms while 8 anonymous audit bodies were answered`,
  );
}
running.stop();
setTimeout(() => process.exit(0), 1500);
