// Reads a V8 .cpuprofile (`node --cpu-prof`, or BENCH_PROFILE=dir npm run bench) and prints
// where the time went: top functions by self time, and self time by package (or src/ folder).
// `node bench/profile-top.mjs <file.cpuprofile> [rows=30]`.
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

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

const functions = new Map();
const places = new Map();
for (const [id, time] of self) {
  const { callFrame } = byId.get(id);
  const name = `${callFrame.functionName || '(anonymous)'} ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  const place = callFrame.url ? where(callFrame.url) : callFrame.functionName;
  places.set(place, (places.get(place) ?? 0) + time);
}
const pct = (time) => `${((100 * time) / total).toFixed(1).padStart(5)} %`;
const top = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, rows);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by place:`);
for (const [name, time] of top(places)) console.log(`${pct(time)}  ${name}`);
console.log('\nself time by function:');
for (const [name, time] of top(functions)) console.log(`${pct(time)}  ${name}`);
