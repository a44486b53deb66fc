// `lineEvents(mdns)`: committed line events as they are published, over Server-Sent Events
// (Yoga's transport; across replicas through the Redis event bus). Owner-scoped: a caller sees
// the events of the lines they may act on (their own, and lines nobody owns), a superuser all.

import type { OutputRef } from '@pothos/core';
import { filter, pipe } from 'graphql-yoga';
import { z } from 'zod';
import type { CarrierId } from '../carriers/types.js';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import { carrierId } from '../operations/management/schemas.js';
import { mdn as mdnSchema } from '../operations/schemas/fields.js';
import type { LineEventMessage } from '../pipeline/event-bus.js';
import { assertOwnHome, ownershipRule } from '../pipeline/line-ownership.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { builder } from './builder.js';
import { outputType, shareObjectType } from './zod-to-graphql.js';

/** Most lines one subscription may name. */
export const MAX_SUBSCRIBED_LINES = 100;

export const LineEventRef: OutputRef<LineEventMessage> = builder.objectRef<LineEventMessage>('LineEvent').implement({
  description:
    'A state change of a line that the gateway made or learned (activated, suspended, SIM swapped…); docs/webhooks.md lists the types and their data',
  fields: (t) => ({
    id: t.exposeID('id', {
      nullable: false,
      description: 'Stable event id (evt_…): the same on every webhook delivery, retry and replay',
    }),
    type: t.exposeString('type', { nullable: false, description: 'Event type, e.g. line.suspended' }),
    mdn: t.exposeString('mdn', { nullable: false, description: 'The line (after an MDN swap: its new number)' }),
    sim: t.exposeString('sim', { nullable: true, description: "The line's SIM (ICCID), when known" }),
    carrier: t.field({
      type: outputType(carrierId, 'CarrierId') as OutputRef<CarrierId>,
      nullable: true,
      description: 'Carrier the line lives on',
      resolve: (event) => event.carrier as CarrierId | null,
    }),
    transactionId: t.exposeString('transactionId', {
      nullable: true,
      description: 'The transaction whose completion wrote the event',
    }),
    occurredAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the gateway committed the change',
      resolve: (event) => event.occurredAt,
    }),
    data: t.field({
      type: 'JSON',
      nullable: false,
      description: 'What changed, by type (docs/webhooks.md): e.g. the new plan, the old and new SIM',
      resolve: (event) => event.data,
    }),
  }),
});

// A webhook delivery (src/operations/webhooks/) carries the same type.
shareObjectType('LineEvent', LineEventRef);

/** Whether the caller may see an event of the line (the rule of line ownership, at publish time). */
async function visible(context: RequestContext, event: LineEventMessage): Promise<boolean> {
  const user = context.user!;
  const rule = await ownershipRule(context, user);
  if (!rule) return true;
  return event.ownerId === user.id || (rule === 'enforced' && event.ownerId === null);
}

builder.subscriptionField('lineEvents', (t) =>
  t.field({
    type: LineEventRef,
    nullable: false,
    description: `Line events as they are committed, over Server-Sent Events: of the lines named (at most ${MAX_SUBSCRIBED_LINES}), else of every line you may act on (superusers: all). An MDN swap is seen by subscribers of the old or the new number`,
    args: {
      mdns: t.arg.stringList({
        required: false,
        description: 'Only these lines (MDNs, 10 digits each); naming another user’s line is FORBIDDEN',
        validate: {
          schema: z
            .array(mdnSchema)
            .max(MAX_SUBSCRIBED_LINES, `mdns must hold at most ${MAX_SUBSCRIBED_LINES} numbers`),
        },
      }),
    },
    subscribe: async (_root, args, context) => {
      const user = context.user;
      if (!user) throw new UnauthenticatedError(context.authFailure);
      const lines = args.mdns ? new Set(args.mdns) : null;
      const rule = lines && (await ownershipRule(context, user));
      if (lines && rule) {
        const homes = await context.lineHomes.loadMany([...lines]);
        homes.forEach((home, index) => {
          if (home instanceof Error) throw home;
          assertOwnHome(home, user, 'line', [...lines][index]!, rule);
        });
      }
      const named = (event: LineEventMessage) =>
        !lines ||
        lines.has(event.mdn) ||
        (typeof event.data.previousMdn === 'string' && lines.has(event.data.previousMdn));
      return pipe(
        context.services.events.pubsub.subscribe('line-event'),
        filter(async (event: LineEventMessage) => named(event) && (await visible(context, event))),
      );
    },
    resolve: (event) => event,
  }),
);
