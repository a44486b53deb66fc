// A bulk job's SIM that its carrier's breaker turned away (src/carriers/circuit-breaker.ts) was
// not sent: the job waits for the carrier and sends it again under the same id (its row, which
// had no effect, is taken over), so that an outage pauses the job instead of failing its SIMs.
// It waits on the breaker itself, through the registry: sending the SIM again only to be turned
// away would rewrite its row (and count an earlier attempt) at every try.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../../pipeline/services.js';
import type { ItemAnswer } from './activate-item.js';
import { findJob } from './job-store.js';

/** How often a SIM waiting for its carrier looks whether its breaker closed, or its run stops. */
const CARRIER_WAIT_POLL_MS = 100;
/** How often a job waiting for its carrier reads whether it was cancelled through another replica. */
const CANCELLATION_READ_MS = 1_000;

/** What the wait reads and sets of the job's run. */
export interface WaitingRun {
  job: { id: string };
  cancelled: boolean;
  /** A caller waits for the job's answer (the synchronous batch): a SIM is not held back. */
  answerNow: boolean;
  /** When the job's cancel mark was last read while waiting (ms). */
  cancellationReadAt: number;
}

/**
 * The SIM's answer from `send`, sent again each time its carrier's breaker closes after turning
 * it away; null when it was not sent and this run will not send it: cancelled meanwhile (here or
 * through another replica), as any SIM after a cancel, or `leaving` (it stays pending for the
 * run that resumes the job). With a caller waiting for the answer, the refusal is its entry.
 */
export async function sendWaitingForCarrier(
  send: () => Promise<ItemAnswer>,
  run: WaitingRun,
  leaving: () => boolean,
  services: Services,
): Promise<ItemAnswer | null> {
  let answer = await send();
  while (answer.pausedCarrier !== undefined && !run.answerNow) {
    const carrier = answer.pausedCarrier;
    while (services.carriers.callsPaused(carrier) && !run.cancelled && !leaving()) {
      // Unref'd: a waiting job does not keep a stopping process alive.
      await sleep(CARRIER_WAIT_POLL_MS, undefined, { ref: false });
      await readCancellation(run, services);
    }
    if (run.cancelled || leaving()) return null;
    answer = await send();
  }
  return answer;
}

/**
 * A job waiting for its carrier writes nothing, so a cancel made through another replica
 * (which only marks the row) would not reach it: it reads the mark, at most once a second.
 */
async function readCancellation(run: WaitingRun, services: Services): Promise<void> {
  const now = performance.now();
  if (run.cancellationReadAt !== 0 && now - run.cancellationReadAt < CANCELLATION_READ_MS) return;
  run.cancellationReadAt = now;
  const job = await findJob(services.db, run.job.id).catch(() => null);
  if (job?.cancelRequested) run.cancelled = true;
}
