// What a full collection costs for the WHATWG objects ky makes per carrier call, measured in
// isolation: `node --expose-gc bench/request-finalization.mjs [calls=20000] [repeats=3]`.
// Each "call" makes what ky's constructor and #fetch make whatever the options (an
// AbortController, a Request that follows its signal, the Request's clone); the baseline makes
// plain objects of about the same shape. After the calls, one forced full collection is timed
// (its pause), then the event loop's longest stall over the next 200 ms: undici registers each
// Request's internal controller with a FinalizationRegistry, whose callbacks (one
// removeEventListener per dead Request) run as one task after the collection that found them
// dead. V8 starts full collections of its own while the calls run (the objects fill the old
// generation), which take some of them first: the figures are a lower bound, steadier with more
// calls. 20,000 calls are ~70 s of the bench's fixed 300 req/s (docs/performance.md, "Where it
// stands").
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof globalThis.gc !== 'function') {
  process.stderr.write('run with node --expose-gc\n');
  process.exit(2);
}
const calls = Number(process.argv[2] ?? 20000);
const repeats = Number(process.argv[3] ?? 3);

const kinds = {
  'plain objects': () => {
    const controller = { signal: { aborted: false, listeners: [] } };
    const request = { url: 'http://127.0.0.1:1/usage', method: 'GET', signal: controller.signal };
    return { ...request };
  },
  "ky's per-call objects": () => {
    const controller = new AbortController();
    const request = new Request('http://127.0.0.1:1/usage', { method: 'GET', signal: controller.signal });
    return request.clone();
  },
};

async function measure(make) {
  let kept;
  for (let index = 0; index < calls; index++) kept = make();
  kept = undefined;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const started = performance.now();
  globalThis.gc();
  const pauseMs = performance.now() - started;
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 200));
  delay.disable();
  return { pauseMs, stallMs: delay.max / 1e6, kept };
}

const ms = (value) => value.toFixed(1);
process.stdout.write(
  `| ${calls} calls of | full collection pause (ms) | longest stall after it (ms) |\n|---|---|---|\n`,
);
for (let round = 1; round <= repeats; round++) {
  for (const [name, make] of Object.entries(kinds)) {
    const { pauseMs, stallMs } = await measure(make);
    process.stdout.write(`| ${name} | ${ms(pauseMs)} | ${ms(stallMs)} |\n`);
  }
}
