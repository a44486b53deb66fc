// The server's limits on slow or idle clients, from the configuration: time to send the
// headers, time to send the whole request (408 after that), idle keep-alive, header size.

import type { Server, ServerOptions } from 'node:http';
import type { Config } from '../config.js';

type TimeoutConfig = Pick<
  Config,
  'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'KEEP_ALIVE_TIMEOUT_MS' | 'MAX_HEADER_BYTES'
>;

/** Options for createServer (node reads these at construction only). */
export function serverOptions(config: TimeoutConfig): ServerOptions {
  // node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS);
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    headersTimeout,
    maxHeaderSize: config.MAX_HEADER_BYTES,
    // node checks both timeouts only this often (30 s by default, longer than they are).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 2))),
  };
}

export function applyIdleTimeout(server: Server, config: TimeoutConfig): void {
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
}
