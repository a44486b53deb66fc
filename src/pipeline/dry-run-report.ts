// What a dry run answers, and the recorder its predictions write to: each check made (name,
// outcome, detail), the refusal the carrier is predicted to give, and what cannot be predicted.

import { CarrierRejection } from '../carriers/errors.js';
import type { CarrierId } from '../carriers/types.js';

export type CheckOutcome = 'passed' | 'failed';

export interface DryRunCheck {
  /** What was checked, e.g. `authentication`, `sim`, `zipCoverage`, `lineStatus`. */
  name: string;
  outcome: CheckOutcome;
  /** What was found, in words (never a secret; caller input is quoted short). */
  detail: string;
}

export interface DryRunReport {
  operation: string;
  /** Whether the real call, made now, would succeed as far as the checks can tell. */
  wouldSucceed: boolean;
  /** The carrier the call would go to (null for an operation the gateway answers itself). */
  carrier: CarrierId | null;
  /** The caller's transaction id, checked free; a dry run never reserves or generates one. */
  transactionId: string | null;
  /** When not: the carrier code (`GENS-0006`, `935`) or the gateway's (`RATE_LIMITED`). */
  predictedCode: string | null;
  /** When not: the message the real call would answer (`Invalid SIM (GENS-0006)`). */
  predictedMessage: string | null;
  /** When it would succeed with a warning (Wi-Fi Calling not added): the warning it would answer. */
  predictedWarning: string | null;
  checks: DryRunCheck[];
  /** Conditions the dry run cannot see, which may still change the outcome. */
  unpredictable: string[];
}

/** A refusal the real call would give, predicted (a carrier's, or the gateway's own). */
export interface PredictedRefusal {
  code: string;
  message: string;
}

/**
 * The checks of one dry run, in the order made. A prediction calls `refuse` (or lets a read's
 * rejection through, mapped to the write's code) to end with the refusal the write would give.
 */
export class DryRunChecks {
  readonly made: DryRunCheck[] = [];
  readonly unpredictable: string[] = [];
  /** The warning a successful call would answer (the first one found). */
  warning: string | null = null;

  passed(name: string, detail: string): void {
    this.made.push({ name, outcome: 'passed', detail });
  }

  failed(name: string, detail: string): void {
    this.made.push({ name, outcome: 'failed', detail });
  }

  /** A condition the dry run cannot see (carrier-side capacity, a concurrent change…). */
  cannotPredict(...conditions: string[]): void {
    for (const condition of conditions) if (!this.unpredictable.includes(condition)) this.unpredictable.push(condition);
  }

  /**
   * A failed check that does not fail the call: it would succeed with `warning` (a WFC plan's
   * activation, reconnect, plan change or purchase with an E911 address the carrier refuses).
   */
  warn(name: string, detail: string, warning: string): void {
    this.failed(name, detail);
    this.warning ??= warning;
  }

  /** Records a failed check and ends the prediction with the carrier refusal the write would give. */
  refuse(name: string, code: string, text: string): never {
    const rejection = new CarrierRejection(code, text);
    this.failed(name, rejection.message);
    throw rejection;
  }

  /**
   * Runs one read-only carrier call. A refusal of the read is the write's refusal too, under
   * the write's own code where the carrier words it differently (`asWrite`); a fault is thrown
   * as it is (the dry run answers the carrier fault's 400, as a query would).
   */
  async read<T>(
    name: string,
    call: () => Promise<T>,
    asWrite: (rejection: CarrierRejection) => CarrierRejection = (rejection) => rejection,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof CarrierRejection)) throw error;
      const predicted = asWrite(error);
      return this.refuse(name, predicted.code, predicted.text);
    }
  }
}
