// Reads a V8 .cpuprofile (`node --cpu-prof`, or BENCH_PROFILE=dir npm run bench) and prints
// where the time went: self time by package (or src/ folder), top functions by self time, and
// with --inclusive the functions by time spent in them and what they called.
// `node bench/profile-top.mjs <file.cpuprofile> [rows=30] [--busy=0.8] [--from=30] [--inclusive]`
//   --busy=F   only the seconds in which the process was on CPU at least F of the time, idle
//              samples left out: the load rounds, without the idle seconds between them;
//   --from=S   only from S seconds after the profile started: a bench profile begins with the
//              seeding reads and the cache warm-up (a database read per user), which a steady
//              round never makes and which otherwise weigh in the figures.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}`))?.split('=')[1] ?? '';
const [file, rowsArg] = args.filter((arg) => !arg.startsWith('--'));
const rows = Number(rowsArg ?? 30);
const busyAtLeast = Number(option('busy') || 0);
const fromSecond = Number(option('from') || 0);
const inclusive = args.includes('--inclusive');

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const isIdle = (id) => byId.get(id).callFrame.functionName === '(idle)';

// Each sample's time and second since the start.
const samples = [];
let clock = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  clock += profile.timeDeltas[i] ?? 0;
  samples.push({
    id: profile.samples[i],
    time: profile.timeDeltas[i] ?? 0,
    second: Math.floor((clock - profile.startTime) / 1e6),
  });
}
const seconds = new Map();
for (const { id, time, second } of samples) {
  const s = seconds.get(second) ?? { busy: 0, all: 0 };
  s.all += time;
  if (!isIdle(id)) s.busy += time;
  seconds.set(second, s);
}
const kept = samples.filter(({ id, second }) => {
  if (second < fromSecond) return false;
  if (!busyAtLeast) return true;
  const s = seconds.get(second);
  return !isIdle(id) && s.busy >= busyAtLeast * s.all;
});
if (busyAtLeast) console.log(`${new Set(kept.map((s) => s.second)).size} seconds at least ${busyAtLeast * 100} % busy`);

function where(url) {
  if (!url) return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const src = /\/dist\/(.*)\/[^/]+$/.exec(url) ?? /\/src\/(.*)\/[^/]+$/.exec(url);
  if (src) return `dist/${src[1]}`;
  if (/\/dist\/[^/]+$/.test(url)) return 'dist';
  if (url.startsWith('node:')) return 'node:';
  return url.replace(/^file:\/\//, '').slice(-40);
}
const nameOf = ({ callFrame }) =>
  `${callFrame.functionName || '(anonymous)'} ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;

const functions = new Map();
const places = new Map();
const within = new Map();
let total = 0;
const add = (map, key, time) => map.set(key, (map.get(key) ?? 0) + time);
for (const { id, time } of kept) {
  const node = byId.get(id);
  total += time;
  add(functions, nameOf(node), time);
  add(places, node.callFrame.url ? where(node.callFrame.url) : node.callFrame.functionName, time);
  if (!inclusive) continue;
  // Once per function on the stack, however often it recurs.
  const onStack = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) onStack.add(nameOf(byId.get(at)));
  for (const name of onStack) add(within, name, time);
}
const pct = (time) => `${((100 * time) / total).toFixed(1).padStart(5)} %`;
const top = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, rows);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by place:`);
for (const [name, time] of top(places)) console.log(`${pct(time)}  ${name}`);
console.log('\nself time by function:');
for (const [name, time] of top(functions)) console.log(`${pct(time)}  ${name}`);
if (inclusive) {
  console.log('\ntime in each function and what it called:');
  for (const [name, time] of top(within)) console.log(`${pct(time)}  ${name}`);
}
