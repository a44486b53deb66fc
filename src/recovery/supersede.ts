// Which lost writes a later write makes moot. Some writes set a state of the line that the next
// write of the same kind replaces (its status, plan, billing code, SIM, number). Once such a
// later write has succeeded, re-sending a lost earlier one is wrong either way: if the carrier
// had it, it replays the old success and the gateway would record a state the line no longer
// has (and emit its event after the later one's); if not, the carrier now performs it and
// silently undoes the later write. The user moved on: the later write stands, and the lost one is
// resolved `superseded` without a re-send.
//
// How this meets the order of re-sends (src/recovery/line-order.ts): a row is re-sent only once
// every older write on its line has resolved, so while this row is unresolved no later write of
// its line is re-sent. The later success that supersedes it is therefore one its own request
// made: the client wrote again while this row's outcome was unknown (a restore that succeeded at
// request time after a lost suspend). That is the case supersession exists for, and it still
// applies when this row's turn comes. A later write that is itself unresolved never supersedes:
// it waits, then both are re-sent oldest first and land in the client's order (a lost suspend,
// then a lost restore: suspended, then restored). A later write that failed does not either.
//
// The kind is read from the operation's declared event type, so an operation joins (or stays out
// of) an aspect by its `event` alone, and a new event type must be placed here to compile.

import type { LineEventType, RowEvent } from '../pipeline/line-events.js';
import type { Services } from '../pipeline/services.js';
import type { TransactionRecord } from '../pipeline/transaction-log.js';
import type { RecoveryLeases } from './leases.js';

export type StateAspect = 'status' | 'plan' | 'billing code' | 'SIM' | 'number';

interface AspectWrite {
  aspect: StateAspect;
  /** How a message names a write of this type: "the line's later restore stands". */
  noun: string;
}

const ASPECT_OF_EVENT: Record<LineEventType, AspectWrite | null> = {
  'line.suspended': { aspect: 'status', noun: 'suspend' },
  'line.restored': { aspect: 'status', noun: 'restore' },
  'line.disconnected': { aspect: 'status', noun: 'disconnect' },
  'line.reconnected': { aspect: 'status', noun: 'reconnect' },
  'line.plan_changed': { aspect: 'plan', noun: 'plan change' },
  'line.billing_code_changed': { aspect: 'billing code', noun: 'billing code change' },
  'line.sim_swapped': { aspect: 'SIM', noun: 'SIM swap' },
  'line.mdn_swapped': { aspect: 'number', noun: 'MDN swap' },
  // Each of these adds or removes something of its own (a purchase, a balance adjustment, a child
  // line) or creates the line, and one event type covers every feature: a later write of the same
  // type does not replace it, so it is re-sent whatever came after.
  'line.activated': null,
  'line.purchase_made': null,
  'line.purchase_cancelled': null,
  'line.feature_changed': null,
  'line.balance_adjusted': null,
  'line.child_line_added': null,
  'line.child_line_removed': null,
};

/** The event types of the writes of one aspect (a number change's `line.mdn_swapped`). */
const eventsOf = (aspect: StateAspect): readonly LineEventType[] =>
  (Object.keys(ASPECT_OF_EVENT) as LineEventType[]).filter((type) => ASPECT_OF_EVENT[type]?.aspect === aspect);

/** What a later write may supersede a row of one operation with. */
export interface Rivals {
  aspect: StateAspect;
  /** The operations whose later success supersedes it: those of the same aspect, itself included. */
  operations: readonly string[];
}

/** The transaction that superseded a row. */
export interface LaterWrite {
  id: string;
  operation: string;
  /** Who made it: a row shows another user's transaction id to no one but them. */
  userId: string;
}

/** The aspects of the operation table, looked up by operation name. */
export class StateAspects {
  private readonly writes = new Map<string, AspectWrite>();
  private readonly byAspect = new Map<StateAspect, string[]>();

  constructor(operations: readonly { name: string; event?: RowEvent }[]) {
    for (const operation of operations) {
      const write = operation.event ? ASPECT_OF_EVENT[operation.event.type] : null;
      if (!write) continue;
      this.writes.set(operation.name, write);
      this.byAspect.set(write.aspect, [...(this.byAspect.get(write.aspect) ?? []), operation.name]);
    }
  }

  /** Null for an operation no later write supersedes. */
  rivals(operation: string): Rivals | null {
    const write = this.writes.get(operation);
    return write ? { aspect: write.aspect, operations: this.byAspect.get(write.aspect) ?? [] } : null;
  }

  /** The operations that give a line a new number, whose later writes are the same line's. */
  get renumbering(): readonly string[] {
    return this.byAspect.get('number') ?? [];
  }

  /** The events of those operations, which carry the line's new number. */
  readonly renumberingEvents = eventsOf('number');

  /** The events of the writes that give a line a new SIM (their data names the old one). */
  readonly simChangeEvents = eventsOf('SIM');

  /**
   * The answer a superseded row records in place of the carrier's (REST field names, as every
   * stored answer): the later transaction, and a message naming it for the line's history.
   */
  answer(
    row: { id: string; operation: string; userId: string },
    later: LaterWrite,
  ): { status: 'superseded'; transaction_id: string; superseded_by?: string; message: string } {
    const noun = (operation: string) => this.writes.get(operation)?.noun ?? operation;
    const stands = `the line's later ${noun(later.operation)} stands; this ${noun(row.operation)} was not re-sent`;
    // Another user's id (a superuser's restore, say) is theirs: a caller-chosen id may say more
    // than it should, and naming it would tell this row's owner it exists.
    if (later.userId !== row.userId)
      return { status: 'superseded', transaction_id: row.id, message: `superseded by another user's write: ${stands}` };
    return {
      status: 'superseded',
      transaction_id: row.id,
      superseded_by: later.id,
      message: `superseded by ${later.id}: ${stands}`,
    };
  }
}

/** The reconciler's step before a re-send: a row a later write has made moot is resolved as such. */
export class Supersession {
  private readonly aspects: StateAspects;

  constructor(
    private readonly leases: RecoveryLeases,
    operations: readonly { name: string; event?: RowEvent }[],
  ) {
    this.aspects = new StateAspects(operations);
  }

  /**
   * True when a later write of the same kind on the row's line has succeeded: the row is then
   * resolved `superseded` (no re-send, no line event, no registry change), or was resolved
   * elsewhere meanwhile; either way it must not be re-sent.
   */
  async settle(row: TransactionRecord, services: Pick<Services, 'logger' | 'metrics'>): Promise<boolean> {
    const rivals = this.aspects.rivals(row.operation);
    if (!rivals || row.mdn === null) return false;
    const later = await this.leases.laterWrite(
      { id: row.id, mdn: row.mdn, createdAt: row.createdAt },
      rivals,
      this.aspects.renumbering,
    );
    if (!later) return false;
    const { logger, metrics } = services;
    const fields = { transactionId: row.id, operation: row.operation, supersededBy: later.id };
    if (!(await this.leases.supersede(row.id, later.id, this.aspects.answer(row, later)))) {
      logger.warn(
        'transaction resolved elsewhere meanwhile (lease expired or its request finished); not superseded',
        fields,
      );
      return true;
    }
    metrics.recoveries.inc({ outcome: 'superseded' });
    logger.info('transaction superseded by a later write of the same kind on its line; not re-sent', {
      ...fields,
      supersedingOperation: later.operation,
    });
    return true;
  }
}
