// GraphiQL's page (GET /graphql from a browser): rendered once from the installed package
// (~9 MB with its scripts inlined, no CDN), then served as a static asset — brotli or gzip,
// an ETag and `Cache-Control: no-cache`, so a browser revalidates and gets a 304 instead of
// downloading it again. The token is typed into its headers pane and never stored.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphiQLOptions } from 'graphql-yoga';
import { StaticAsset } from './static-asset.js';

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
      asset ??= render().then((page) => new StaticAsset(Buffer.from(page), 'text/html; charset=utf-8', 'no-cache'));
      await (await asset).send(request, response);
      return true;
    },
  };
}
