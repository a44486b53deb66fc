// The admin command line's grammar: usage text, commands with their arguments and flags, and
// the parsing that refuses what a command does not take before anything is opened.

import { parseArgs } from 'node:util';
import type { CarrierId } from '../carriers/types.js';
import type { ValidationFailedError } from '../errors/gateway-errors.js';

export const USAGE = `Usage: npm run --silent admin -- <command>

  user create <name> [--superuser] [--carrier 321|carrier_b]
  user update <name> [--superuser true|false] [--carrier 321|carrier_b|none] [--active true|false]
  user list
  plan create <plan_id> --name <name> --carrier-plan-id <code> [--carrier 321|carrier_b] [--price <n>] [--description <text>] [--wfc]
  plan update <plan_id> [--name <name>] [--carrier-plan-id <code>] [--carrier 321|carrier_b|none] [--price <n>] [--description <text>] [--wfc true|false]
  plan list
  plan authorize <user> <plan_id>...
  token issue <user> [--ttl <duration, e.g. 12h or 30d>]   (prints the token alone)
  token revoke <token-or-id>
  line assign <mdn> <user> [--carrier 321|carrier_b]       (a line the gateway has not seen is looked up at the carriers)
  line unassign <mdn>                                      (the line belongs to nobody: every user may act on it)
  recovery waiting                                           (lost writes held back behind an older unresolved write on their line, by older write)
  recovery abandon <transaction_id> --reason <text> [--dry-run]
                                                             (gives up a lost write recovery cannot resolve; check the line at the carrier first:
                                                              it may have happened there. The writes it held back go at the servers' next sweep)
  config                                                     (the environment variables)`;

export class UsageError extends Error {}

const options = {
  superuser: { type: 'string' },
  carrier: { type: 'string' },
  active: { type: 'string' },
  name: { type: 'string' },
  'carrier-plan-id': { type: 'string' },
  price: { type: 'string' },
  description: { type: 'string' },
  wfc: { type: 'string' },
  ttl: { type: 'string' },
  reason: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

export type Flag = keyof typeof options;
export type Flags = Partial<Record<Exclude<Flag, 'dry-run'>, string>> & { 'dry-run'?: boolean };

/** What each command takes: how many arguments after the command, and which flags. */
const COMMANDS: Record<string, { args: [min: number, max: number]; flags: Flag[] }> = {
  'user create': { args: [1, 1], flags: ['superuser', 'carrier'] },
  'user update': { args: [1, 1], flags: ['superuser', 'carrier', 'active'] },
  'user list': { args: [0, 0], flags: [] },
  'plan create': { args: [1, 1], flags: ['name', 'carrier-plan-id', 'carrier', 'price', 'description', 'wfc'] },
  'plan update': { args: [1, 1], flags: ['name', 'carrier-plan-id', 'carrier', 'price', 'description', 'wfc'] },
  'plan list': { args: [0, 0], flags: [] },
  'plan authorize': { args: [2, Infinity], flags: [] },
  'token issue': { args: [1, 1], flags: ['ttl'] },
  'token revoke': { args: [1, 1], flags: [] },
  'line assign': { args: [2, 2], flags: ['carrier'] },
  'line unassign': { args: [1, 1], flags: ['carrier'] },
  'recovery waiting': { args: [0, 0], flags: [] },
  'recovery abandon': { args: [1, 1], flags: ['reason', 'dry-run'] },
};

/** How the CLI spells each input field, for validation messages. */
const SPELLING: Record<string, string> = {
  name: '<name>',
  planId: '<plan_id>',
  planIds: '<plan_id>',
  user: '<user>',
  carrierPreference: '--carrier',
  carrier: '--carrier',
  carrierPlanId: '--carrier-plan-id',
  price: '--price',
  description: '--description',
  wfc: '--wfc',
  superuser: '--superuser',
  active: '--active',
  ttl: '--ttl',
  mdn: '<mdn>',
  id: '<transaction_id>',
  reason: '--reason',
};

/** Refuses arguments and flags the command does not take (they would be silently ignored). */
export function checkShape(command: string, args: string[], flags: Flags): void {
  const shape = COMMANDS[command];
  if (!shape) throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  const [min, max] = shape.args;
  if (args.length < min) throw new UsageError(`${command} needs ${min === 1 ? 'an argument' : `${min} arguments`}`);
  if (args.length > max) throw new UsageError(`${command}: unexpected argument ${JSON.stringify(args[max])}`);
  const foreign = (Object.keys(flags) as Flag[]).filter((flag) => !shape.flags.includes(flag));
  if (foreign.length > 0)
    throw new UsageError(`${command} does not take ${foreign.map((flag) => `--${flag}`).join(', ')}`);
}

/** A validation failure in the CLI's own words: `--carrier: carrier must be 321 or carrier_b`. */
export function describeValidation(noun: string | undefined, error: ValidationFailedError): string {
  const spell = (field: string) => (noun === 'plan' && field === 'name' ? '--name' : SPELLING[field]);
  return error.issues
    .map((issue) => `${spell(String(issue.loc[1])) ?? issue.loc.slice(1).join('.')}: ${issue.msg}`)
    .join('\n');
}

/** `--superuser` and `--wfc` may stand alone (true) or take true/false. */
export function parse(argv: string[]): { positionals: string[]; flags: Flags } {
  const normalised = argv.flatMap((arg, index) => {
    const next = argv[index + 1];
    return (arg === '--superuser' || arg === '--wfc') && next !== 'true' && next !== 'false' ? [arg, 'true'] : [arg];
  });
  const { positionals, values } = parseArgs({ args: normalised, options, allowPositionals: true, strict: true });
  return { positionals, flags: values as Flags };
}

export const bool = (value: string | undefined, flag: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`--${flag} takes true or false`);
  return value === 'true';
};
export const carrierOrNone = (value: string | undefined): CarrierId | null | undefined =>
  value === 'none' ? null : (value as CarrierId | undefined);
// Number('') is 0: an empty --price must be refused, not read as free.
export const number = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : value.trim() === '' ? Number.NaN : Number(value);
