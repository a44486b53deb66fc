// The gateway's two browser pages in a real browser (Debian's Chromium driven by playwright-core),
// sharing one browser and one gateway: each loads from the gateway alone (any request to a host
// that is not loopback fails the test). /docs renders every REST operation from /openapi.json and
// its "Try it out" gets a real answer; GraphiQL at /graphql takes a token typed into its headers
// pane, runs a query and shows the answer, and prints the page's transferred size and a rough time
// to interactive. Skipped, saying why, when Chromium is absent.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes } from '../../src/rest/routes.js';
import { operations } from '../../src/operations/index.js';
import { ARTIFACTS, chromiumAvailable, launchLoopbackBrowser, type LoopbackBrowser } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const available = chromiumAvailable('/docs and GraphiQL');

describe.skipIf(!available)('the pages in Chromium', () => {
  let gateway: TestGateway;
  let browser: LoopbackBrowser;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startTestGateway(), launchLoopbackBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** A new tab, with the refused and failed requests made from the moment it opens. */
  async function freshPage(): Promise<{ page: Page; outside(): string[]; failed(): string[] }> {
    const [outsideBefore, failedBefore] = [browser.outside.length, browser.failed.length];
    const page = await browser.context.newPage();
    return {
      page,
      outside: () => browser.outside.slice(outsideBefore),
      failed: () => browser.failed.slice(failedBefore),
    };
  }

  it('renders every REST operation offline, from the gateway alone', async () => {
    const { page, outside, failed } = await freshPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const answer = await page.goto(`${gateway.url}/docs`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    const routes = compileRoutes(operations);
    await page.waitForFunction((count) => document.querySelectorAll('.opblock').length === count, routes.length, {
      timeout: 60_000,
    });
    const summaries = await page.$$eval('.opblock-summary-path', (nodes) =>
      nodes.map((node) => node.getAttribute('data-path')),
    );
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
    expect(outside()).toEqual([]);
    expect(failed()).toEqual([]);
  }, 120_000);

  it('runs a query with a token typed into the headers pane, offline', async () => {
    const { user, token } = await gateway.user({ name: 'graphiql-browser-user' });
    const { page, outside, failed } = await freshPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (request) =>
      sizes.push(request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize)),
    );

    const answer = await page.goto(`${gateway.url}/graphql`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    const execute = page.locator('.graphiql-execute-button');
    await execute.waitFor({ timeout: 60_000 });
    await page.locator('.graphiql-query-editor .monaco-editor .view-lines').waitFor();
    const interactiveMs = await page.evaluate(() => performance.now());
    const transferred = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
    process.stdout.write(
      `GraphiQL page: ${transferred} bytes transferred, interactive after ~${Math.round(interactiveMs)} ms\n`,
    );

    await page.getByRole('button', { name: /headers/i }).click();
    // GraphiQL's editors are Monaco; the tool pane holds the variables and headers editors, one hidden.
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor .view-lines');
    await expect.poll(() => headers.count()).toBe(1);
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await expect.poll(() => headers.innerText()).toMatch(/^\s*$/);
    // insertText, not type: Monaco would close each bracket and quote typed one key at a time.
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${token}` }));
    await expect.poll(() => headers.innerText()).toContain('Bearer');
    await execute.click();
    const result = page.locator('.graphiql-response');
    await expect.poll(() => result.innerText(), { timeout: 30_000 }).toContain(user.name);
    expect(await result.innerText()).not.toContain('UNAUTHENTICATED');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'graphiql.png') });
    // The token was never stored by the page.
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(token);
    expect(errors).toEqual([]);
    expect(outside()).toEqual([]);
    expect(failed()).toEqual([]);
  }, 120_000);
});
