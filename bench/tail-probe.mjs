// What stalls the gateway's event loop under the fixed-rate load, for experiments: preloaded into
// the gateway with BENCH_GATEWAY_ENV='{"NODE_OPTIONS":"--import ./bench/tail-probe.mjs"}' (an
// absolute path when run from elsewhere), it appends one JSON line per busy second to
// TAIL_PROBE_OUT (/tmp/tail-probe.jsonl): CPU ms that second, event-loop delay p50/p99/max
// (monitorEventLoopDelay, 2 ms resolution), garbage collections by kind (count/total/longest ms),
// every pause over 8 ms, and the heap in use. Only `dist/main.js` reports (the sandbox shares the
// environment). Not used by the bench itself.
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

if (process.argv[1]?.endsWith('dist/main.js')) {
  const out = process.env.TAIL_PROBE_OUT ?? '/tmp/tail-probe.jsonl';
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let gc = {};
  let pauses = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind] ?? String(entry.detail?.kind);
      const sum = (gc[kind] ??= { count: 0, ms: 0, longestMs: 0 });
      sum.count++;
      sum.ms += entry.duration;
      sum.longestMs = Math.max(sum.longestMs, entry.duration);
      if (entry.duration > 8) pauses.push([kind, Math.round(entry.duration)]);
    }
  }).observe({ entryTypes: ['gc'] });
  const start = Date.now();
  let cpu = process.cpuUsage();
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const cpuMs = Math.round((used.user + used.system) / 1000);
    if (cpuMs > 20) {
      const line = {
        t: Math.round((Date.now() - start) / 1000),
        cpuMs,
        loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
        gc: Object.fromEntries(
          Object.entries(gc).map(([kind, s]) => [kind, `${s.count}/${Math.round(s.ms)}ms/${Math.round(s.longestMs)}`]),
        ),
        pauses,
        heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      };
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    }
    delay.reset();
    gc = {};
    pauses = [];
  }, 1000).unref();
}
