// Sends webhook deliveries: POST {id, type, created, data} signed with the endpoint's secret,
// each attempt recorded, failures retried with exponential backoff and jitter until 72 h after
// the delivery was queued. In order per endpoint: only the oldest pending delivery of an endpoint
// is sent, so a later event waits while an earlier one is being retried (a delivery that gives
// up, after 72 h, lets the next go). A delivery is sent by one replica at a time: a claim is one
// conditional UPDATE of its lease, as the reconciler's claims are.

import { Agent, request } from 'undici';
import type { Database } from '../db/client.js';
import type { Logger } from '../lib/logger.js';
import { recordOf, webhookPayloadOf } from './outbox.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { checkWebhookUrl, guardedLookup, WebhookUrlRefused } from './url-guard.js';
import { WorkerLoop } from './worker-loop.js';
import { logPassFailure } from '../errors/database-unavailable.js';

export interface DispatchSettings {
  /** This replica's name on the deliveries it holds. */
  owner: string;
  timeoutMs: number;
  retryBaseMs: number;
  allowPrivate: boolean;
  pollMs: number;
}

/** Retries stop this long after a delivery was queued (the receiver may be down for a weekend). */
export const RETRY_WINDOW_MS = 72 * 3_600_000;
/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 3_600_000;
/** Deliveries (each of another endpoint) sent side by side in one pass. */
const CONCURRENCY = 8;
/** The most of a receiver's answer kept in an attempt's error. */
const MAX_ERROR_LENGTH = 200;

/** The wait before attempt `attempts + 1`: base·2^(attempts−1), at most 1 h, ±20% jitter. */
export function retryDelay(attempts: number, baseMs: number, random = Math.random): number {
  const delay = Math.min(baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30), MAX_RETRY_DELAY_MS);
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/** Why an attempt failed, in words safe to store and show (never the secret, never a stack). */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof WebhookUrlRefused) return error.message;
  const cause = (error as { cause?: unknown }).cause ?? error;
  const named = cause as { name?: string; code?: string; message?: string };
  if (named.name === 'TimeoutError' || named.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  if (cause instanceof WebhookUrlRefused) return cause.message;
  return (named.code ? `${named.code}: ` : '') + (named.message ?? 'connection failed').slice(0, MAX_ERROR_LENGTH);
}

export class WebhookDispatcher {
  private readonly loop: WorkerLoop;
  private readonly agent: Agent;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly settings: DispatchSettings,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(settings.allowPrivate), timeout: settings.timeoutMs },
      keepAliveTimeout: 4_000,
    });
    this.loop = new WorkerLoop(
      () => this.pass(),
      settings.pollMs,
      (error) => logPassFailure(this.logger, 'webhook dispatch failed', error),
    );
  }

  start(): void {
    this.loop.wake();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.agent.close();
  }

  /** Sends every endpoint's due head delivery; asks to run again at once when it sent any. */
  private async pass(): Promise<number | null> {
    const active = await this.db.webhookEndpoint.findMany({ where: { active: true }, select: { id: true } });
    if (active.length === 0) return null;
    const heads = await this.db.webhookDelivery.groupBy({
      by: ['endpointId'],
      where: { status: 'pending', endpointId: { in: active.map((endpoint) => endpoint.id) } },
      _min: { seq: true },
    });
    const seqs = heads.map((head) => head._min.seq).filter((seq): seq is number => seq !== null);
    if (seqs.length === 0) return null;
    const now = new Date();
    const rows = await this.db.webhookDelivery.findMany({ where: { seq: { in: seqs } } });
    const leaseFree = (row: { leaseUntil: Date | null }) => row.leaseUntil === null || row.leaseUntil < now;
    const due = rows.filter((row) => row.nextAttemptAt <= now && leaseFree(row));
    const later = rows
      .filter((row) => !due.includes(row))
      .map((row) => Math.max(row.nextAttemptAt.getTime(), row.leaseUntil?.getTime() ?? 0) - now.getTime());
    const queue = [...due];
    let sent = 0;
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) if (await this.attempt(row.id)) sent++;
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
    if (sent > 0) return 0;
    return later.length > 0 ? Math.max(Math.min(...later), 0) + 5 : null;
  }

  /** One attempt of one delivery, if this replica wins its claim; true when it attempted. */
  private async attempt(id: string): Promise<boolean> {
    const { owner, timeoutMs, retryBaseMs, allowPrivate } = this.settings;
    const now = new Date();
    const { count } = await this.db.webhookDelivery.updateMany({
      where: {
        id,
        status: 'pending',
        nextAttemptAt: { lte: now },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      },
      data: { leaseUntil: new Date(now.getTime() + timeoutMs + 30_000), leaseOwner: owner, attempts: { increment: 1 } },
    });
    if (count !== 1) return false;
    const delivery = await this.db.webhookDelivery.findUnique({
      where: { id },
      include: { event: true, endpoint: true },
    });
    if (!delivery) return false;
    const body = webhookPayloadOf(recordOf(delivery.event));
    const started = Date.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      // The form is checked again (a row could predate a stricter setting); the address at connect time.
      const url = checkWebhookUrl(delivery.endpoint.url, allowPrivate);
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'line-gateway-webhooks/1',
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.endpoint.secret, body),
          'line-gateway-event-id': delivery.event.id,
          'line-gateway-delivery-id': delivery.id,
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      httpStatus = answer.statusCode;
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (httpStatus < 200 || httpStatus >= 300) error = `receiver answered HTTP ${httpStatus}`;
    } catch (failure) {
      error = failureOf(failure, timeoutMs);
    }
    const durationMs = Date.now() - started;
    const finished = new Date();
    const nextAttemptAt = new Date(finished.getTime() + retryDelay(delivery.attempts, retryBaseMs));
    const givesUp = error !== null && nextAttemptAt.getTime() - delivery.createdAt.getTime() > RETRY_WINDOW_MS;
    const outcome =
      error === null
        ? { status: 'delivered', deliveredAt: finished }
        : givesUp
          ? { status: 'failed' }
          : { status: 'pending', nextAttemptAt };
    await this.db.$transaction([
      this.db.webhookAttempt.create({
        data: { deliveryId: id, attempt: delivery.attempts, attemptedAt: now, durationMs, httpStatus, error },
      }),
      this.db.webhookDelivery.updateMany({
        where: { id, leaseOwner: owner },
        data: { ...outcome, lastStatus: httpStatus, lastError: error, leaseUntil: null, leaseOwner: null },
      }),
    ]);
    if (error !== null)
      this.logger.warn('webhook delivery failed', {
        deliveryId: id,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        attempt: delivery.attempts,
        reason: error,
        ...(givesUp ? { gaveUp: true } : { retryAt: nextAttemptAt.toISOString() }),
      });
    return true;
  }
}
