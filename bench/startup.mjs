// Start-up time (process start → first 200 on /healthz) and idle RSS (the whole process tree,
// after 3 s idle) of the gateway under different launchers. `node bench/startup.mjs [runs]`.
// Prints a Markdown table; docs/deploy.md quotes a run. The machine's load shifts the times:
// compare rows of one run, not runs of different days.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.argv[2] ?? 3);
const launchers = {
  'tsx src/main.ts (before)': ['node_modules/.bin/tsx', ['src/main.ts']],
  'node dist/main.js': [process.execPath, ['dist/main.js']],
  'npm start (build check + dist)': ['npm', ['start', '--silent']],
};

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function tree(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the table was read: not part of the tree.
    }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  return found;
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function measure(command, args) {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-startup-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'startup-measurement-secret-0123456789abcdef',
  };
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env, stdio: 'ignore' });
  let ms;
  for (let i = 0; i < 6000 && ms === undefined; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) ms = performance.now() - started;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const pids = tree(child.pid);
  const rss = pids.reduce((sum, pid) => sum + rssKb(pid), 0);
  const processes = pids.length;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  return { ms, rssMb: rss / 1024, processes };
}

const rows = [];
for (let run = 0; run < runs; run++) {
  for (const [name, [command, args]] of Object.entries(launchers)) {
    const result = await measure(command, args);
    rows.push({ name, ...result });
  }
}
console.log(
  '| launcher | start-up to first /healthz 200 (ms, each run) | idle RSS of the process tree (MB) | processes |',
);
console.log('|---|---|---|---|');
for (const name of Object.keys(launchers)) {
  const mine = rows.filter((row) => row.name === name);
  console.log(
    `| ${name} | ${mine.map((row) => Math.round(row.ms)).join(', ')} | ${mine.map((row) => Math.round(row.rssMb)).join(', ')} | ${mine[0].processes} |`,
  );
}
