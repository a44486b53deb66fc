// The SIMs of a resumed job that an earlier run had sent (it crashed, stopped or lost its lease
// before writing their outcome): their rows in the transaction log, and the entry each gets from
// its row, once recovery has resolved an outcome the earlier run left unknown. Never re-sent
// from here, but for a SIM whose call had no effect.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../../pipeline/services.js';
import { entryFromTransaction, type ItemAnswer } from './activate-item.js';
import type { JobLeases } from './job-leases.js';
import type { JobRecord, LoggedAnswer, PendingItem, SentRow } from './job-store.js';

/** How often a SIM whose outcome is being recovered is looked at again. */
const RECOVERY_POLL_MS = 500;
/** Transaction rows read per query when a job resumes. */
const RESUME_CHUNK = 500;

/** The transaction rows of the job's pending SIMs that a previous run had reserved, by id. */
export async function sentBefore(
  store: JobLeases,
  job: JobRecord,
  items: readonly PendingItem[],
): Promise<Map<string, SentRow>> {
  const found = new Map<string, SentRow>();
  for (let start = 0; start < items.length; start += RESUME_CHUNK) {
    const ids = items.slice(start, start + RESUME_CHUNK).map((item) => item.transactionId);
    for (const row of await store.activationsSince(job, ids)) found.set(row.id, row);
  }
  return found;
}

/**
 * The row of a SIM an earlier run sent, unless that call had no effect (its carrier's breaker
 * turned it away, a refused connection): such a SIM was never activated, and is sent again under
 * its id, as a waiting run would have.
 */
export function sentWithEffect(row: SentRow | undefined): SentRow | undefined {
  return row && !(row.status === 'error' && row.noEffect) ? row : undefined;
}

/**
 * The entry of a SIM a previous run sent: its recorded answer, once recovery has resolved an
 * outcome left unknown. Null when the run stops meanwhile (`leaving`).
 */
export async function settleSent(
  row: LoggedAnswer,
  item: PendingItem,
  leaving: () => boolean,
  services: Services,
): Promise<ItemAnswer | null> {
  let current: LoggedAnswer | null = row;
  while (current && (current.status === 'pending' || current.status === 'unknown')) {
    if (leaving()) return null;
    services.recovery.resolveSoon(current.id);
    // Unref'd: a waiting job does not keep a stopping process alive.
    await sleep(RECOVERY_POLL_MS, undefined, { ref: false });
    current = await services.transactions.find(current.id);
  }
  return current ? { entry: entryFromTransaction(item.input.sim, current), outcomeUnknown: false } : null;
}
