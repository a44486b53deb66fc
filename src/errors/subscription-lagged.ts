// A subscription whose client fell too far behind its events (src/pipeline/bounded-subscription.ts).

import { TryAgainLaterError } from './gateway-errors.js';

/**
 * A subscription whose client fell too far behind (it stopped reading, or reads more slowly than
 * events come): the gateway stops holding events for it, and the client, once it has read what
 * it was sent, is told to subscribe again (what it missed is in the lines' history).
 */
export class SubscriptionLaggedError extends TryAgainLaterError {
  override readonly name = 'SubscriptionLaggedError';
  readonly code = 'SUBSCRIPTION_LAGGED';
  constructor(backlog: number) {
    super(
      `This subscription fell ${backlog} events behind its client and was ended: subscribe again (lineHistory has what was missed)`,
      1,
    );
  }
}
