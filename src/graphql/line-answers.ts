// One GraphQL request's carrier answers for the `Line` fields. Identical calls (same operation,
// same input) run once per request, however many lines, aliases or fields ask for them: the
// same MDN listed twice, `a: usage` beside `b: usage`, or the service record that `service`,
// `simDetails` and `esimProfile` all read. And the calls in flight to each carrier are bounded
// (LINES_CARRIER_CONCURRENCY), so that a screen of 50 lines does not open 100 connections to
// one carrier at once; only the carrier call holds a slot, not the pipeline steps before it.

import DataLoader from 'dataloader';
import type { CarrierId } from '../carriers/types.js';
import { RequestAbortedError } from '../errors/request-aborted.js';
import { executeOperation, givenInput, type CarrierSlot } from '../pipeline/execute.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { FIELD_ARGUMENTS } from '../pipeline/validate.js';

export type Body = Record<string, unknown>;

interface Call {
  operation: RegisteredOperation;
  input: Body;
}

// Keyed by the request's context, so a request's answers go when the request does.
const answersByRequest = new WeakMap<RequestContext, DataLoader<Call, Body, string>>();

/**
 * A slot function bounding, per carrier, the calls in flight through it. A call that finds a
 * free slot starts at once, with no queue entry or extra promise (most screens stay under the
 * bound); the others wait in order for a slot to be handed over. A call whose client has gone by
 * its turn is not made (RequestAbortedError) and passes the slot on: an abandoned screen of 50
 * lines would otherwise keep calling a struggling carrier for minutes, for nobody.
 */
export function perCarrierSlots(bound: number, clientGone: () => boolean = () => false): CarrierSlot {
  const slots = new Map<CarrierId, { active: number; waiting: (() => void)[] }>();
  return async (carrierId, call) => {
    let slot = slots.get(carrierId);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      slots.set(carrierId, slot);
    }
    // A finishing call hands its slot straight to the next waiter, so `active` stays counted.
    if (slot.active < bound) slot.active += 1;
    else await new Promise<void>((resolve) => slot.waiting.push(resolve));
    try {
      if (clientGone()) throw new RequestAbortedError('The client went away before this carrier call could start');
      return await call();
    } finally {
      const next = slot.waiting.shift();
      if (next) next();
      else slot.active -= 1;
    }
  };
}

function answersOf(context: RequestContext): DataLoader<Call, Body, string> {
  let answers = answersByRequest.get(context);
  if (!answers) {
    const carrierSlot = perCarrierSlots(context.services.config.LINES_CARRIER_CONCURRENCY, context.clientGone);
    answers = new DataLoader<Call, Body, string>(
      // `batch: false`: each call starts at once and settles on its own (a slow line does not
      // hold back a fast one's answer); the loader is the request's memo of calls.
      async ([call]) => {
        const outcome = await executeOperation(call!.operation, givenInput(call!.input, FIELD_ARGUMENTS), context, {
          budgeted: true,
          carrierSlot,
        });
        return [outcome.body as Body];
      },
      // Inputs are built by line.ts in a fixed member order, so their JSON is a stable key.
      { batch: false, cacheKeyFn: (call) => `${call.operation.name}:${JSON.stringify(call.input)}` },
    );
    answersByRequest.set(context, answers);
  }
  return answers;
}

/**
 * The answer of `operation` to `input` for this request: run through the whole pipeline
 * (ownership, maintenance, validation) the first time it is asked for, then shared.
 */
export function answerOf(context: RequestContext, operation: RegisteredOperation, input: Body): Promise<Body> {
  return answersOf(context).load({ operation, input });
}
