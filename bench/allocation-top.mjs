// Reads `.heapprofile` files (bench/allocation-probe.mjs) and prints the allocation sites by
// bytes allocated. With --per="<site>" each row is also given in units of that site's bytes: a
// site every request passes once (e.g. --per="Ky ky/" for ky's constructor) turns the figures into
// allocation per request, comparable between two scenarios' profiles.
// `node bench/allocation-top.mjs <files…> [--per=<site prefix>] [--rows=40]`
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const files = args.filter((arg) => !arg.startsWith('--'));
const per = option('per');
const rows = Number(option('rows') ?? 40);

const site = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${lineNumber}`;
const bytesBySite = new Map();
let total = 0;
for (const file of files) {
  const walk = (node) => {
    const key = site(node.callFrame);
    bytesBySite.set(key, (bytesBySite.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(JSON.parse(readFileSync(file, 'utf8')).head);
}
const unit = per
  ? [...bytesBySite].filter(([key]) => key.startsWith(per)).reduce((sum, [, bytes]) => sum + bytes, 0)
  : 0;
console.log(
  `${(total / 2 ** 20).toFixed(1)} MB sampled${unit ? `, ${(total / unit).toFixed(1)} units of "${per}"` : ''}`,
);
for (const [key, bytes] of [...bytesBySite].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  const share = `${((bytes / total) * 100).toFixed(1)} %`.padStart(7);
  console.log(`${share}${unit ? (bytes / unit).toFixed(2).padStart(7) : ''}  ${key}`);
}
