// GET /openapi.json and the /docs page (Swagger UI from the installed swagger-ui-dist, served
// by the gateway itself: no CDN, works offline). Public, like any API documentation: no token.
// Everything is built on first use and kept; the assets are compressed and cacheable.

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../lib/package-root.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import { buildOpenApiDocument } from './openapi.js';
import { sendJson } from '../http/json.js';
import { StaticAsset } from '../http/static-asset.js';

/** The files of swagger-ui-dist the page uses (nothing else of the package is reachable). */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// An external script rather than an inline one, so a Content-Security-Policy without
// 'unsafe-inline' for scripts allows it. `validatorUrl: null`: no call to swagger.io.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    displayRequestDuration: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
// The page and the document name no version: caches must ask again (a 304 when unchanged).
const REVALIDATE = 'no-cache';

const page = (asset: (name: string) => string) => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>line-gateway REST API</title>
    <link rel="stylesheet" href="${asset('swagger-ui.css')}">
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('docs-init.js')}"></script>
  </body>
</html>
`;

/** The page may load only what the gateway serves (Swagger UI styles its own elements inline). */
const PAGE_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

interface DocsAssets {
  openapi: StaticAsset;
  page: StaticAsset;
  /** By URL path: /docs/assets/<content hash>/<name>. */
  files: Map<string, StaticAsset>;
}

async function loadAssets(operations: readonly RegisteredOperation[]): Promise<DocsAssets> {
  const swaggerDir = dirname(
    createRequire(join(packageRoot(), 'package.json')).resolve('swagger-ui-dist/package.json'),
  );
  const named = new Map<string, StaticAsset>();
  for (const [name, type] of Object.entries(SWAGGER_FILES))
    named.set(name, new StaticAsset(await readFile(join(swaggerDir, name)), type, IMMUTABLE));
  named.set('docs-init.js', new StaticAsset(Buffer.from(INIT_SCRIPT), 'text/javascript; charset=utf-8', IMMUTABLE));
  const files = new Map<string, StaticAsset>();
  const urls = new Map<string, string>();
  for (const [name, asset] of named) {
    const path = `/docs/assets/${asset.hash}/${name}`;
    files.set(path, asset);
    // Relative to /docs, so the page also works behind a proxy that mounts the gateway under a prefix.
    urls.set(name, path.slice(1));
  }
  return {
    openapi: new StaticAsset(
      Buffer.from(JSON.stringify(buildOpenApiDocument(operations))),
      'application/json',
      REVALIDATE,
    ),
    page: new StaticAsset(Buffer.from(page((name) => urls.get(name)!)), 'text/html; charset=utf-8', REVALIDATE, {
      'content-security-policy': PAGE_POLICY,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    }),
    files,
  };
}

export interface ApiDocs {
  /** Answers /openapi.json, /docs and /docs/assets/*; false for any other path. */
  handle(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<boolean>;
}

export function createApiDocs(operations: readonly RegisteredOperation[]): ApiDocs {
  let assets: Promise<DocsAssets> | undefined;
  const loaded = () => {
    assets ??= loadAssets(operations);
    // A failed load (a missing package) is retried on the next request instead of cached.
    assets.catch(() => (assets = undefined));
    return assets;
  };
  return {
    async handle(request, response, pathname) {
      if (
        pathname !== '/openapi.json' &&
        pathname !== '/docs' &&
        pathname !== '/docs/' &&
        !pathname.startsWith('/docs/assets/')
      )
        return false;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        sendJson(response, 405, { detail: 'Method Not Allowed' }, { allow: 'GET, HEAD' });
        return true;
      }
      if (pathname === '/docs/') {
        // The page's relative asset URLs resolve against /docs.
        response.writeHead(308, { location: '/docs', 'content-length': 0 });
        response.end();
        return true;
      }
      const { openapi, page: docsPage, files } = await loaded();
      const asset = pathname === '/openapi.json' ? openapi : pathname === '/docs' ? docsPage : files.get(pathname);
      if (!asset) {
        sendJson(response, 404, { detail: 'Not Found' });
        return true;
      }
      await asset.send(request, response);
      return true;
    },
  };
}
