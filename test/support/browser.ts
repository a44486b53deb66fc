// Debian's Chromium driven by playwright-core for the browser tests: a fresh profile, the
// flags that keep it from calling home, and a guard that refuses (and records) every request
// to a host that is not loopback. Tests skip, saying why, when Chromium is absent.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether Chromium is installed; prints why a browser test is skipped when it is not. */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available)
    process.stdout.write(`${what} browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
  return available;
}

export interface LoopbackBrowser {
  context: BrowserContext;
  /** Requests to a host that is not loopback (refused). */
  outside: string[];
  /** Requests that failed, with their error text. */
  failed: string[];
  close(): Promise<void>;
}

export async function launchLoopbackBrowser(): Promise<LoopbackBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'line-gateway-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const outside: string[] = [];
  const failed: string[] = [];
  // Every request the page makes goes through here: loopback ones proceed, others are recorded and refused.
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || LOOPBACK.has(url.hostname)) return route.continue();
    outside.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  context.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
  return {
    context,
    outside,
    failed,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
