// The Vary header is shared by several layers (CORS varies on Origin, compression and the
// static assets on Accept-Encoding): each adds its field to what is there, so that a cache
// never serves one origin's answer (with its allow-origin and credentials) to another.

import type { ServerResponse } from 'node:http';

/** Adds `field` to the response's Vary unless it is named already (or Vary is `*`). */
export function addVary(response: ServerResponse, field: string): void {
  const current = response.getHeader('vary');
  const listed = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (listed.includes('*') || listed.some((name) => name.toLowerCase() === field.toLowerCase())) return;
  response.setHeader('vary', [...listed, field].join(', '));
}
