// A checkout's gateway started from its sources (`npx tsx src/main.ts`) as its own process, for the
// probes that measure one commit against another (bench/body-cost.mjs, bench/hardening-probe.mjs):
// a fresh data directory and port, the admin CLI of the same checkout, and the process stopped as
// a group (npx, tsx and node).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The gateway's environment and admin CLI for `root` (a checkout), with `settings` over the
 * defaults; nothing is started yet, so users and tokens can be made first.
 */
export function sourceGateway(root, { name, portBase, settings = {} }) {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const port = portBase + Math.floor(Math.random() * 300);
  const env = {
    ...process.env,
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, 'g.db')}`,
    PORT: String(port),
    JWT_SECRET: 'probe-secret-that-is-long-enough-0123456789abcdef',
    LOG_LEVEL: 'info',
    ...settings,
  };
  const admin = (...args) =>
    execFileSync('npx', ['tsx', 'src/cli/main.ts', ...args], { cwd: root, env, encoding: 'utf8' }).trim();
  return {
    base: `http://127.0.0.1:${port}`,
    admin,
    /** A token for `user` (made first), valid for an hour. */
    token: (user) => admin('token', 'issue', user, '--ttl', '1h').split('\n').pop(),
    /**
     * Starts it; resolves once its log says it listens (and `ready(log)`, when given, holds).
     * `keepLog`: the log is kept for `log()`, else read and dropped, so that a full pipe never
     * stalls the gateway.
     */
    async start({ keepLog = false, ready = () => true } = {}) {
      const child = spawn('npx', ['tsx', 'src/main.ts'], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
      let log = '';
      let started = false;
      await new Promise((resolve) =>
        child.stderr.on('data', (chunk) => {
          if (started && !keepLog) return;
          log += chunk;
          if (!started && log.includes('listening') && ready(log)) {
            started = true;
            if (!keepLog) log = '';
            resolve();
          }
        }),
      );
      return {
        log: () => log,
        stop: () => process.kill(-child.pid, 'SIGTERM'),
      };
    },
  };
}
