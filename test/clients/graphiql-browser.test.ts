// GraphiQL at /graphql in a real browser (Debian's Chromium driven by playwright-core): it loads
// from the gateway alone (any request to a host that is not loopback fails the test), takes a
// token typed into its headers pane, runs a query and shows the answer. Prints the page's
// transferred size and a rough time to interactive. Skipped, saying why, without Chromium.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, chromiumAvailable, launchLoopbackBrowser, type LoopbackBrowser } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const available = chromiumAvailable('GraphiQL');

describe.skipIf(!available)('GraphiQL in Chromium', () => {
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

  it('runs a query with a token typed into the headers pane, offline', async () => {
    const { user, token } = await gateway.user({ name: 'graphiql-browser-user' });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (request) => sizes.push(request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize)));

    const answer = await page.goto(`${gateway.url}/graphql`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    const execute = page.locator('.graphiql-execute-button');
    await execute.waitFor({ timeout: 60_000 });
    await page.locator('.graphiql-query-editor .monaco-editor .view-lines').waitFor();
    const interactiveMs = await page.evaluate(() => performance.now());
    const transferred = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
    process.stdout.write(`GraphiQL page: ${transferred} bytes transferred, interactive after ~${Math.round(interactiveMs)} ms\n`);

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
    expect(browser.outside).toEqual([]);
    expect(browser.failed).toEqual([]);
  }, 120_000);
});
