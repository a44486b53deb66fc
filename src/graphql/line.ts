// The dashboard's entry points, GraphQL only: `line(mdn)` and `lines(mdns)` return a `Line`
// whose fields (usage, service, network status, SIM…) are fetched lazily, only when asked for,
// in parallel, each through the shared pipeline, so auth, maintenance, validation and ownership
// apply exactly as to the top-level query of the same name; identical calls are made once per
// request and the calls in flight are bounded per carrier (line-answers.ts). Rate: these fields
// are paid for by the request's cost budget (use-cost-budget.ts), not by the operation's
// per-minute calls.

import type { OutputRef } from '@pothos/core';
import { z } from 'zod';
import type { CarrierId } from '../carriers/types.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import { operationNamed } from '../operations/index.js';
import { carrierId } from '../operations/management/schemas.js';
import { mdn as mdnSchema } from '../operations/schemas/fields.js';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import { executeOperation, givenInput } from '../pipeline/execute.js';
import { assertOwnHome, ownershipRule } from '../pipeline/line-ownership.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { FIELD_ARGUMENTS } from '../pipeline/validate.js';
import { builder } from './builder.js';
import { answerOf, type Body } from './line-answers.js';
import { carrierCalls, costPerItemOf, sharedCarrierCall } from './query-cost.js';
import { argumentTypes, outputType } from './zod-to-graphql.js';
import { toPascal } from '../lib/case.js';

/** Most lines one `lines` call may ask for. */
export const MAX_LINES = 50;

interface LineSource {
  mdn: string;
}

const lineSource = (mdn: string): LineSource => ({ mdn });

/** The line's SIM as its service record names it; null when the record could not be read. */
async function simOf(line: LineSource, context: RequestContext): Promise<string | null> {
  const service = await answerOf(context, serviceInfo, { mdn: line.mdn });
  return typeof service.sim === 'string' ? service.sim : null;
}

function requireUser(context: RequestContext): void {
  // `carrier` reads the line registry directly, so the entry points themselves need a caller.
  if (!context.user) throw new UnauthenticatedError(context.authFailure);
}

const resultType = (operation: RegisteredOperation) =>
  outputType(operation.output, `${toPascal(operation.name)}Result`) as OutputRef<Body>;

const serviceInfo = operationNamed('serviceInfo');
/** The service record: one call per line, however many of its fields read it (line-answers.ts). */
const readsServiceRecord = sharedCarrierCall(serviceInfo.name);

const historyOperation = operationNamed('lineHistory');
/** `history(first, after)`: the `lineHistory` operation's arguments but the line's own MDN. */
const historyArgs = argumentTypes(historyOperation.input, historyOperation.name).filter((arg) => arg.key !== 'mdn');

const LineRef = builder.objectRef<LineSource>('Line').implement({
  description:
    'A subscriber line: each field is fetched from the carrier only when asked for, as the query of the same name would fetch it',
  fields: (t) => {
    /**
     * A field answered by an operation of the table; a carrier refusal is data (status failure),
     * other refusals an error on this field only. Priced (query-cost.ts) as the carrier calls it
     * makes per line: by default its operation's one call.
     */
    const viaOperation = (
      operation: RegisteredOperation,
      description: string,
      input: (line: LineSource, context: RequestContext) => Promise<Body | null>,
      extensions: Record<string, unknown> = carrierCalls(1),
    ) =>
      t.field({
        type: resultType(operation),
        nullable: true,
        description,
        extensions,
        resolve: async (line, _args, context) => {
          const given = await input(line, context);
          return given ? answerOf(context, operation, given) : null;
        },
      });
    const byMdn = async (line: LineSource) => ({ mdn: line.mdn });
    const bySim = async (line: LineSource, context: RequestContext) => {
      const sim = await simOf(line, context);
      return sim ? { sim } : null;
    };
    // A SIM field's own call, and the service record that names the SIM.
    const bySimCalls = { ...carrierCalls(1), ...readsServiceRecord };
    return {
      id: t.id({
        nullable: false,
        description: 'Identity of the line for client caches: its MDN',
        resolve: (line) => line.mdn,
      }),
      mdn: t.exposeString('mdn', { nullable: false, description: 'Subscriber number (MDN), 10 digits' }),
      carrier: t.field({
        type: outputType(carrierId, 'CarrierId') as OutputRef<CarrierId>,
        nullable: true,
        description:
          'Carrier the line lives on, as last seen by this gateway; null when the gateway has not seen the line. Another user’s line is an error (FORBIDDEN), as its other fields are',
        resolve: async (line, _args, context) => {
          const home = await context.lineHomes.load(line.mdn);
          // The entry points required a caller; this field reads the registry itself, so it checks ownership itself.
          const user = context.user!;
          const rule = await ownershipRule(context, user);
          if (rule) assertOwnHome(home, user, 'line', line.mdn, rule);
          return home?.carrier ?? null;
        },
      }),
      usage: viaOperation(operationNamed('usage'), 'Usage and balance of the line (as the usage query)', byMdn),
      service: viaOperation(
        serviceInfo,
        'Full service record of the line (as the serviceInfo query)',
        byMdn,
        readsServiceRecord,
      ),
      carrierUsage: viaOperation(
        operationNamed('carrierUsage'),
        'Raw carrier usage records of the line (as the carrierUsage query)',
        byMdn,
      ),
      networkStatus: viaOperation(
        operationNamed('networkStatus'),
        'Network (HLR) status of the line (as the networkStatus query)',
        byMdn,
      ),
      simDetails: viaOperation(
        operationNamed('simDetails'),
        "Details of the line's SIM, named by its service record (as the simDetails query); null when the service record cannot be read",
        bySim,
        bySimCalls,
      ),
      esimProfile: viaOperation(
        operationNamed('esimProfile'),
        "eSIM profile of the line's SIM, named by its service record (as the esimProfile query); null when the service record cannot be read",
        bySim,
        bySimCalls,
      ),
      activePlan: viaOperation(
        operationNamed('activePlan'),
        'Plan SOC active on the line (as the activePlan query; carrier 321 only)',
        byMdn,
      ),
      products: viaOperation(
        operationNamed('products'),
        'Feature SOCs active on the line (as the products query; carrier 321 only)',
        byMdn,
      ),
      history: t.field({
        type: resultType(historyOperation),
        nullable: true,
        description: `${historyOperation.description} (as the lineHistory query)`,
        args: Object.fromEntries(
          historyArgs.map((arg) => [
            arg.key,
            t.arg({ type: arg.type as never, required: arg.required, description: arg.description }),
          ]),
        ),
        // No carrier call, so not budgeted: it spends the operation's own per-minute calls, as
        // the top-level query and REST do.
        resolve: async (line, given, context) => {
          const paging = Object.entries(given).filter(([, value]) => value !== null && value !== undefined);
          const input = { mdn: line.mdn, ...Object.fromEntries(paging) };
          return (await executeOperation(historyOperation, givenInput(input, FIELD_ARGUMENTS), context)).body as Body;
        },
      }),
      account: viaOperation(
        operationNamed('account'),
        'Multi-line account of the line (as the account query; carrier 321 only)',
        byMdn,
      ),
    };
  },
});

builder.queryField('line', (t) =>
  t.field({
    type: LineRef,
    nullable: true,
    description: 'One line by MDN, for dashboards: ask for just the fields you need; they are fetched in parallel',
    args: {
      mdn: t.arg.string({
        required: true,
        description: 'Subscriber number (MDN), 10 digits',
        validate: { schema: mdnSchema },
      }),
    },
    resolve: (_root, args, context) => {
      requireUser(context);
      return lineSource(args.mdn);
    },
  }),
);

builder.queryField('lines', (t) =>
  t.field({
    type: [LineRef],
    // The list is nullable (a refused request voids only this field); its items are not.
    nullable: { list: true, items: false },
    // Every carrier-calling field selected under `lines` runs once per MDN.
    extensions: costPerItemOf('mdns'),
    description: `Several lines by MDN (at most ${MAX_LINES}), for dashboards: one lookup of where the lines live for all of them; a field failing for one line does not fail the others`,
    args: {
      mdns: t.arg.stringList({
        required: true,
        description: `Subscriber numbers (MDNs), 10 digits each, at most ${MAX_LINES}`,
        validate: { schema: z.array(mdnSchema).max(MAX_LINES, `mdns must hold at most ${MAX_LINES} numbers`) },
      }),
    },
    resolve: async (_root, args, context) => {
      requireUser(context);
      // One batched registry query now; every later lookup (carrier, routing) hits the loader's cache.
      await context.lineHomes.loadMany(args.mdns);
      return args.mdns.map(lineSource);
    },
  }),
);
