// GraphiQL's page (GET /graphql from a browser): rendered once from the installed package
// (~9 MB with its scripts inlined, no CDN), then served as a static asset — brotli or gzip,
// an ETag and `Cache-Control: no-cache`, so a browser revalidates and gets a 304 instead of
// downloading it again. The token is typed into its headers pane and never stored. Its headers
// keep it to itself: a Content-Security-Policy, no framing, no Referer.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphiQLOptions } from 'graphql-yoga';
import { StaticAsset } from './static-asset.js';

/** The inline scripts of a page (those without `src`), as the browser hashes them: their text. */
function inlineScripts(html: string): string[] {
  // Scanned, not matched with a regex: linear over the 9 MB page whatever it holds. The renderer
  // writes its tags in lower case; a script ends at the first `</script` (the bundle holds no
  // other, or it could not have been inlined). A script missed here is refused by the browser.
  const scripts: string[] = [];
  let from = 0;
  for (;;) {
    const open = html.indexOf('<script', from);
    const tagEnd = open === -1 ? -1 : html.indexOf('>', open);
    const close = tagEnd === -1 ? -1 : html.indexOf('</script', tagEnd);
    if (close === -1) return scripts;
    if (!/\ssrc\s*=/i.test(html.slice(open, tagEnd))) scripts.push(html.slice(tagEnd + 1, close));
    from = close + '</script'.length;
  }
}

/**
 * The page's Content-Security-Policy: it runs only its own inline script, allowed by its hash
 * (computed from the page as rendered, so that a GraphiQL upgrade cannot go stale here), and
 * loads nothing from elsewhere. The editor (Monaco) starts its workers from blob: URLs, and a
 * worker created so inherits this policy for what it loads; it inserts <style> elements and style
 * attributes, and its fonts and icons are data: URLs. The page may be framed by nobody.
 */
function graphiQLPolicy(html: string): string {
  const hashes = inlineScripts(html).map(
    (script) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')} blob:`,
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface GraphiQLPage {
  /** Yoga's renderer (the same page), should Yoga ever render it itself. */
  render(options: GraphiQLOptions): Promise<string>;
  /** Answers a browser's GET/HEAD for the page; false when the request is not one. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
}

export function createGraphiQLPage(options: GraphiQLOptions): GraphiQLPage {
  let html: Promise<string> | undefined;
  let asset: Promise<StaticAsset> | undefined;
  const render = () =>
    (html ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options)));
  return {
    render,
    async handle(request, response) {
      // Yoga's rule for when GraphiQL answers: a GET whose Accept names HTML.
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !request.headers.accept?.includes('text/html'))
        return false;
      asset ??= render().then(
        (page) =>
          new StaticAsset(Buffer.from(page), 'text/html; charset=utf-8', 'no-cache', {
            // As /docs: a page that sends the token typed into it is never framed or named to others.
            'content-security-policy': graphiQLPolicy(page),
            'x-frame-options': 'DENY',
            'referrer-policy': 'no-referrer',
          }),
      );
      await (await asset).send(request, response);
      return true;
    },
  };
}
