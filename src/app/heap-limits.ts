// V8 heap settings of the gateway process, set from inside it so that every way of starting it
// (`node dist/main.js` in the bench and the Docker image, `npm start`) runs with them. V8 reads
// them as it collects and allocates, so they take effect at run time (docs/performance.md, "Memory").
// A flag given on the node command line wins: it is left as the operator set it (node refuses
// these V8 flags in NODE_OPTIONS, so the command line is the only other place they can come from).

import { setFlagsFromString } from 'node:v8';

const givenOnCommandLine = (flag: string) =>
  process.execArgv.some((arg) => arg.replace(/_/g, '-').startsWith(`--${flag}`));

/**
 * The old generation grows to 1.7× what survived the last full collection, where V8 would let
 * it reach up to 4× on a machine with memory to spare: under 50 connections the gateway keeps
 * ~45–60 MB alive (~75 MB with 20,000 active users) but promotes the in-flight requests'
 * objects, and the old space reached ~270 MB of mostly garbage before V8 collected it. At 2×
 * the bench's peak RSS with 20,000 users was 297–326 MB, at 1.7× 267–277 MB, for CPU a request
 * within the machine's swings (docs/performance.md, "Per-user memory, the allocator and the
 * cache lifetime").
 */
const HEAP_GROWING_PERCENT = 70;

export function boundHeapGrowth(): void {
  if (!givenOnCommandLine('heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * No allocation-site pretenuring: V8 allocates the objects of a site whose objects often survive
 * a scavenge straight into the old generation, and under load some of the request path's sites
 * qualify (a request in flight at a scavenge). Such an object, dead a moment later, still points
 * at the young objects of its request, and the next scavenge, which cannot know it is dead,
 * copies them and promotes them: whole request graphs reach the old generation and wait there for
 * a full collection. Measured at 300 GraphQL `usage` a second: ~1.1 MB promoted per scavenge
 * with it, ~0.65 MB without (docs/performance.md, "Pretenuring").
 */
export function noAllocationSitePretenuring(): void {
  if (!givenOnCommandLine('allocation-site-pretenuring')) setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * Start-up (modules, schema, OpenAPI) allocates mostly what lives for the whole process, which
 * would grow the young generation to its 2 × 16 MB maximum and keep it resident while idle.
 * The young generation stays at its initial size until `startupDone()`, then grows with the
 * load as V8 would have it (growth factor 2, its default).
 */
export function holdYoungGenerationDuringStartup(): { startupDone(): void } {
  if (givenOnCommandLine('semi-space-growth-factor')) return { startupDone: () => undefined };
  setFlagsFromString('--semi-space-growth-factor=1');
  return { startupDone: () => setFlagsFromString('--semi-space-growth-factor=2') };
}
