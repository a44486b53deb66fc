// /docs in a real browser (Debian's Chromium driven by playwright-core): the page renders every
// REST operation from /openapi.json with nothing but the gateway's own files — any request to
// a host that is not loopback fails the test. Skipped, saying why, when Chromium is absent.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes } from '../../src/rest/routes.js';
import { operations } from '../../src/operations/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const available = existsSync(CHROMIUM);
if (!available) process.stdout.write(`/docs browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);

describe.skipIf(!available)('/docs in Chromium', () => {
  let gateway: TestGateway;
  let context: BrowserContext;
  let profile: string;
  const outside: string[] = [];
  const failed: string[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway();
    profile = mkdtempSync(join(tmpdir(), 'line-gateway-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 900 },
    });
    // Every request the page makes goes through here: loopback ones proceed, others are recorded and refused.
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || LOOPBACK.has(url.hostname)) return route.continue();
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    context.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await gateway?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('renders every REST operation offline, from the gateway alone', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const answer = await page.goto(`${gateway.url}/docs`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    const routes = compileRoutes(operations);
    await page.waitForFunction((count) => document.querySelectorAll('.opblock').length === count, routes.length, { timeout: 60_000 });
    const summaries = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((node) => node.getAttribute('data-path')));
    expect(new Set(summaries)).toEqual(new Set(routes.map((route) => route.path)));
    expect(await page.locator('.btn.authorize').count()).toBe(1);
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png') });

    // "Try it out" with a token and the example values: the sandbox answers for real.
    const { token } = await gateway.user();
    await page.locator('.btn.authorize').click();
    await page.locator('.auth-container input').fill(token);
    await page.locator('.auth-btn-wrapper .authorize').click();
    await page.locator('.btn-done').click();
    const coverage = page.locator('#operations-Queries-coverage');
    await coverage.locator('.opblock-summary').click();
    await coverage.locator('.try-out__btn').click();
    await expect.poll(() => coverage.locator('input[placeholder="zip_code"]').inputValue()).toBe('10001');
    await coverage.locator('.execute').click();
    const status = coverage.locator('.live-responses-table tbody .response-col_status');
    await status.first().waitFor({ timeout: 30_000 });
    expect((await status.first().textContent())?.trim()).toBe('200');
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it-out.png'), fullPage: false });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(failed).toEqual([]);
  }, 120_000);
});
