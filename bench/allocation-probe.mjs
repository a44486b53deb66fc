// What the gateway allocates under load, for experiments: preloaded into the gateway with
// BENCH_GATEWAY_ENV='{"NODE_OPTIONS":"--import /abs/path/bench/allocation-probe.mjs"}', it keeps a
// heap sampling profile of every allocation, those a scavenge or a full collection frees too,
// and writes one `.heapprofile` per busy 4 s window (over 60 % of a core) into
// ALLOCATION_PROBE_DIR (/tmp/allocation-probe), named `<window>-<cpu ms>`; the windows of the load
// rounds are the busy ones after the cache warm-up. `node bench/allocation-top.mjs <files…>`
// reads them. Only `dist/main.js` reports (the sandbox shares the environment). Not used by the
// bench itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { setInterval } from 'node:timers';

const WINDOW_MS = 4000;

if (process.argv[1]?.endsWith('dist/main.js')) {
  const dir = process.env.ALLOCATION_PROBE_DIR ?? '/tmp/allocation-probe';
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const start = () =>
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  await start();
  let window = 0;
  let cpu = process.cpuUsage();
  setInterval(async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const cpuMs = Math.round((used.user + used.system) / 1000);
    if (cpuMs > WINDOW_MS * 0.6)
      writeFileSync(`${dir}/${String(window).padStart(3, '0')}-${cpuMs}.heapprofile`, JSON.stringify(profile));
    window++;
    await start();
  }, WINDOW_MS).unref();
}
