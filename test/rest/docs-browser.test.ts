// /docs in a real browser (Debian's Chromium driven by playwright-core): the page renders every
// REST operation from /openapi.json with nothing but the gateway's own files — any request to
// a host that is not loopback fails the test. Skipped, saying why, when Chromium is absent.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes } from '../../src/rest/routes.js';
import { operations } from '../../src/operations/index.js';
import { ARTIFACTS, chromiumAvailable, launchLoopbackBrowser, type LoopbackBrowser } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const available = chromiumAvailable('/docs');

describe.skipIf(!available)('/docs in Chromium', () => {
  let gateway: TestGateway;
  let browser: LoopbackBrowser;

  beforeAll(async () => {
    gateway = await startTestGateway();
    browser = await launchLoopbackBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('renders every REST operation offline, from the gateway alone', async () => {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
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
    expect(browser.outside).toEqual([]);
    expect(browser.failed).toEqual([]);
  }, 120_000);
});
