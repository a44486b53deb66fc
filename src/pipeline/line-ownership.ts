// Object-level authorization of lines (OWASP API1): a user acts only on the lines they own,
// and, under the default rule, on lines the gateway knows no owner of (legacy lines, or lines
// it has not seen: those go to the carrier as before). The `strict` rule closes those too, for
// deployments whose teams must not reach each other's subscribers through numbers the gateway
// never recorded. Superusers act on any line; `off` turns the rule off for single-team
// deployments. The homes come from the request's loaders, which routing reads too, so the
// check costs no query of its own.

import type { UserRecord } from '../directory/types.js';
import type { LineOwnershipMode } from '../settings/definitions.js';
import type { LineHome } from '../lines/registry.js';
import type { CarrierRoutedOperation, RegisteredOperation } from './operation.js';
import { LineNotOwnedError } from '../errors/gateway-errors.js';
import type { RequestContext } from './request-context.js';
import { nonEmptyText } from '../lib/text.js';

const text = nonEmptyText;

/** The rule a caller is held to; null when none applies (a superuser, or the setting is `off`). */
export type OwnershipRule = Exclude<LineOwnershipMode, 'off'>;

export async function ownershipRule(request: RequestContext, user: UserRecord): Promise<OwnershipRule | null> {
  if (user.superuser) return null;
  const { settings } = request.services;
  const mode = (settings.cachedValues() ?? (await settings.values())).line_ownership;
  return mode === 'off' ? null : mode;
}

/**
 * Whether `user` may act on what `home` says of a line or SIM. `enforced`: anything but another
 * user's. `strict`: a line only when it is the caller's; a SIM the gateway knows only when its
 * line is the caller's, while a SIM it has never seen stays open as stock not yet activated, or
 * nobody could activate one. Whether it is stock only the carrier knows: a query of such a SIM
 * is checked again on its answer (checkAnsweredSims).
 */
export function mayActOn(home: LineHome | null, user: UserRecord, kind: 'line' | 'SIM', rule: OwnershipRule): boolean {
  if (rule === 'enforced' || (kind === 'SIM' && home === null)) return !home?.ownerId || home.ownerId === user.id;
  return home?.ownerId === user.id;
}

/**
 * Refuses a home the rule keeps from `user`. Under `strict` every refusal reads the same, so
 * that it tells nothing of whether the number is another user's, nobody's or unknown.
 */
export function assertOwnHome(
  home: LineHome | null,
  user: UserRecord,
  kind: 'line' | 'SIM',
  named: string,
  rule: OwnershipRule,
): void {
  if (!mayActOn(home, user, kind, rule)) throw new LineNotOwnedError(kind, named, rule);
}

async function homes(loader: RequestContext['lineHomes'], keys: string[]): Promise<(LineHome | null)[]> {
  const loaded = await loader.loadMany(keys);
  return loaded.map((home) => {
    if (home instanceof Error) throw home;
    return home;
  });
}

/**
 * The lines of `mdns` that `user` may see: all of them when no rule applies to the caller, else
 * those the rule lets them act on.
 */
export async function visibleLines(request: RequestContext, user: UserRecord, mdns: string[]): Promise<Set<string>> {
  const rule = await ownershipRule(request, user);
  if (!rule) return new Set(mdns);
  const lineHomes = await homes(request.lineHomes, mdns);
  return new Set(mdns.filter((_, index) => mayActOn(lineHomes[index] ?? null, user, 'line', rule)));
}

/** Refuses the request when a line or SIM its input names (per the operation table) is another user's. */
export async function checkLineOwnership(
  operation: RegisteredOperation,
  input: Record<string, unknown>,
  request: RequestContext,
  user: UserRecord,
): Promise<void> {
  const mdns = operation.ownedLines.map((field) => text(input[field])).filter((value) => value !== undefined);
  const sims = operation.ownedSims.map((field) => text(input[field])).filter((value) => value !== undefined);
  if (mdns.length === 0 && sims.length === 0) return;
  const rule = await ownershipRule(request, user);
  if (!rule) return;
  const lineHomes = await homes(request.lineHomes, mdns);
  lineHomes.forEach((home, index) => assertOwnHome(home, user, 'line', mdns[index]!, rule));
  // A SIM of a line just checked is that line's; only other SIMs need a lookup.
  const checked = new Set(lineHomes.map((home) => home?.sim));
  const others = sims.filter((sim) => !checked.has(sim));
  const simHomes = await homes(request.simHomes, others);
  simHomes.forEach((home, index) => assertOwnHome(home, user, 'SIM', others[index]!, rule));
}

/**
 * Under `strict`, a SIM the gateway has never recorded passed the check before the carrier as
 * stock: the carrier's answer to a SIM-keyed query now says whether it is. One that does not
 * show the SIM as stock (it serves, or served, a line the gateway never recorded, so none of
 * the caller's) is refused with the rule's words, and the answer (PUK codes, activation code)
 * goes no further: not to the caller, not to the log. `body` is a successful answer's.
 */
export async function checkAnsweredSims(
  operation: CarrierRoutedOperation,
  input: Record<string, unknown>,
  request: RequestContext,
  user: UserRecord,
  body: unknown,
): Promise<void> {
  if (!operation.showsStockSim || operation.showsStockSim(body)) return;
  const rule = await ownershipRule(request, user);
  if (rule !== 'strict') return;
  const sims = operation.ownedSims.map((field) => text(input[field])).filter((value) => value !== undefined);
  // The loader answers from the homes the check before the carrier loaded.
  const simHomes = await homes(request.simHomes, sims);
  simHomes.forEach((home, index) => {
    if (home === null) throw new LineNotOwnedError('SIM', sims[index]!, rule);
  });
}
