// Caps on open connections, applied when a connection is accepted and before a byte of it is
// read: at most MAX_CONNECTIONS_PER_CLIENT from one remote address, and at most MAX_CONNECTIONS
// in all (node's server.maxConnections), so that clients holding connections open (slowly sent
// bodies, idle keep-alive) can neither crowd out every other client nor use up the file
// descriptors the process needs for its database, Redis and carrier connections. A refused
// connection is closed at once, without an answer: counted in
// line_gateway_connections_refused_total{reason} and logged at most once a minute per address.

import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Socket } from 'node:net';
import type { Config } from '../config.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';

/**
 * File descriptors kept for the process's own use when MAX_CONNECTIONS is derived from the
 * open-file limit. What a replica holds besides client connections, measured idle at ~36 (stdio,
 * epoll and event fds, libuv's pipes, the listening sockets, SQLite's database, WAL and shm
 * files, log files), and at most: the PostgreSQL pool (10) and its LISTEN connection (1), Redis
 * (3: rate limits, event publish and subscribe), both carriers' keep-alive pools (2 × 64 = 128;
 * twice that, 256, when the sandbox carriers run in-process and accept those connections too),
 * webhook deliveries (8 at once, plus idle keep-alive ones) and the trace exporter. Rounded up:
 * 64 + 16 + 8 + 256 + 32 + 32 = 408 ≤ 512, so ~100 spare for what is transient (a migration's
 * connection, DNS lookups, a connection node accepts only to close it over the cap).
 */
export const RESERVED_DESCRIPTORS = 512;
/** MAX_CONNECTIONS where the open-file limit cannot be read (not Linux): a fixed guess; set it there. */
export const FALLBACK_MAX_CONNECTIONS = 4096;

/** The soft limit on open files (RLIMIT_NOFILE) from /proc/self/limits; null when unknown or unlimited. */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  let limits: string;
  try {
    limits = read();
  } catch {
    return null;
  }
  // "Max open files            20000                20000                files"
  const soft = /^Max open files\s+(\d+)\s/m.exec(limits)?.[1];
  return soft === undefined ? null : Number(soft);
}

/**
 * The global cap when MAX_CONNECTIONS is unset: the open-file limit less RESERVED_DESCRIPTORS,
 * keeping at most half the limit under a small one (1024 → 512 connections, 20,000 → 19,488).
 * Node raises the soft limit to the hard one at start-up, so the limit read here is the raised one.
 */
export function defaultMaxConnections(limit: number | null): number {
  if (limit === null) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(1, limit - Math.min(RESERVED_DESCRIPTORS, Math.floor(limit / 2)));
}

/** What the gateway applies; 0 = no cap. */
export interface ConnectionCaps {
  perClient: number;
  total: number;
  /** The soft open-file limit read at start-up (null when unknown). */
  openFileLimit: number | null;
  /** Where `total` comes from. */
  totalFrom: 'MAX_CONNECTIONS' | 'open-file limit' | 'fallback';
}

export function connectionCaps(
  config: Pick<Config, 'MAX_CONNECTIONS' | 'MAX_CONNECTIONS_PER_CLIENT'>,
  limit: number | null = openFileLimit(),
): ConnectionCaps {
  const given = config.MAX_CONNECTIONS;
  return {
    perClient: config.MAX_CONNECTIONS_PER_CLIENT,
    total: given ?? defaultMaxConnections(limit),
    openFileLimit: limit,
    totalFrom: given !== undefined ? 'MAX_CONNECTIONS' : limit === null ? 'fallback' : 'open-file limit',
  };
}

/**
 * Start-up warnings: a MAX_CONNECTIONS that leaves the process too few descriptors, and a
 * per-client cap that lets one address take every connection (a small open-file limit).
 */
export function capsWarnings(caps: ConnectionCaps): string[] {
  const { perClient, total, openFileLimit: limit } = caps;
  const warnings: string[] = [];
  if (limit !== null && caps.totalFrom === 'MAX_CONNECTIONS' && (total === 0 || total > defaultMaxConnections(limit)))
    warnings.push(
      `MAX_CONNECTIONS ${total === 0 ? '0 (no cap)' : total} leaves fewer than ${RESERVED_DESCRIPTORS} of the ${limit} open files for the database, Redis and carriers: clients can use up the file descriptors (unset MAX_CONNECTIONS, or raise the limit: ulimit -n, LimitNOFILE=)`,
    );
  if (perClient > 0 && total > 0 && perClient >= total)
    warnings.push(
      `MAX_CONNECTIONS_PER_CLIENT ${perClient} is not below MAX_CONNECTIONS ${total}: one client address can hold every connection (raise the open-file limit, or lower MAX_CONNECTIONS_PER_CLIENT)`,
    );
  return warnings;
}

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * The client a remote address stands for: an IPv4-mapped IPv6 address (a dual-stack listener on
 * `::` sees IPv4 clients as `::ffff:203.0.113.7`) is its IPv4 address, so that a host counts once
 * and is logged as operators know it. Other IPv6 addresses count one by one (not by /64: the
 * clients in one cloud subnet share a /64); the global cap bounds what many addresses can hold.
 */
export function clientOf(address: string): string {
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}

export type RefusalReason = 'per_client' | 'global';

/**
 * Warnings about refused connections, bounded whatever a client does: per one-minute window, one
 * line per address (and one for the global cap), at most `maxNamed` of them, then one line
 * counting what was refused without a line of its own. The counter has the exact numbers.
 */
export class RefusalLog {
  /** Refusals since the warning, by address (or "global") warned about in this window. */
  private readonly warned = new Map<string, number>();
  private unnamed = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly caps: Pick<ConnectionCaps, 'perClient' | 'total'>,
    private readonly windowMs = 60_000,
    private readonly maxNamed = 10,
  ) {}

  refused(reason: RefusalReason, address: string | undefined): void {
    const key = reason === 'global' ? reason : (address ?? 'unknown');
    const since = this.warned.get(key);
    if (since !== undefined) this.warned.set(key, since + 1);
    else if (this.warned.size >= this.maxNamed) this.unnamed++;
    else {
      this.warned.set(key, 0);
      this.logger.warn(...this.warning(reason, address));
    }
    this.timer ??= setTimeout(() => this.flush(), this.windowMs).unref();
  }

  /** Ends the window: one line for the refusals it did not log, if any. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let notLogged = this.unnamed;
    for (const count of this.warned.values()) notLogged += count;
    if (notLogged > 0)
      this.logger.warn('further connections refused, not logged one by one', {
        refused: notLogged,
        windowSeconds: this.windowMs / 1000,
        addressesLogged: this.warned.size,
      });
    this.warned.clear();
    this.unnamed = 0;
  }

  private warning(reason: RefusalReason, address: string | undefined): [string, Record<string, unknown>] {
    const window = `further refusals within ${this.windowMs / 1000} s are counted in line_gateway_connections_refused_total, not logged`;
    return reason === 'per_client'
      ? [
          `connection refused: ${this.caps.perClient} already open from this address (MAX_CONNECTIONS_PER_CLIENT; behind a proxy, raise it or set 0); ${window}`,
          { address, reason, cap: this.caps.perClient },
        ]
      : [
          `connection refused: ${this.caps.total} connections already open in all (MAX_CONNECTIONS); ${window}`,
          { address, reason, cap: this.caps.total },
        ];
  }
}

export interface ConnectionLimits {
  caps: ConnectionCaps;
  /** Connections open from `address` as the per-client cap counts them (0 without that cap). */
  openFrom(address: string): number;
  /** TCP connections open in all, as MAX_CONNECTIONS counts them. */
  open(): Promise<number>;
  /** Stops the refusal log's window (the server's own close stops the rest). */
  close(): void;
}

/**
 * Applies the caps to `server`. Only TCP connections count: the in-process transport
 * (src/http/in-process.ts) hands the server connections that hold no descriptor.
 */
export function applyConnectionLimits(
  server: Server,
  caps: ConnectionCaps,
  services: { metrics: Metrics; logger: Logger },
): ConnectionLimits {
  const log = new RefusalLog(services.logger, caps);
  const refusals = services.metrics.connectionsRefused;
  if (caps.total > 0) {
    // Node closes a connection over the cap before it makes a socket of it, and says so here.
    server.maxConnections = caps.total;
    server.on('drop', (data?: { remoteAddress?: string }) => {
      refusals.inc({ reason: 'global' });
      log.refused('global', data?.remoteAddress === undefined ? undefined : clientOf(data.remoteAddress));
    });
  }
  const open = new Map<string, number>();
  if (caps.perClient > 0) {
    const cap = caps.perClient;
    // Ahead of node's own listener: a refused socket is destroyed before anything reads from it.
    server.prependListener('connection', (socket: Socket) => {
      if (!(socket instanceof Socket)) return;
      const remote = socket.remoteAddress;
      // No address: the peer has already gone (reset before this ran); node closes it as it is.
      if (remote === undefined) return;
      const client = clientOf(remote);
      const count = open.get(client) ?? 0;
      if (count >= cap) {
        socket.destroy();
        refusals.inc({ reason: 'per_client' });
        log.refused('per_client', client);
        return;
      }
      open.set(client, count + 1);
      socket.once('close', () => {
        const left = open.get(client)! - 1;
        if (left === 0) open.delete(client);
        else open.set(client, left);
      });
    });
  }
  return {
    caps,
    openFrom: (address) => open.get(clientOf(address)) ?? 0,
    open: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () => log.flush(),
  };
}
