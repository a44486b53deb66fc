// Object-level authorization of lines (OWASP API1): a user acts only on the lines they own,
// and on lines the gateway knows no owner of (legacy lines, or lines it has not seen: those
// go to the carrier as before). Superusers act on any line; the `line_ownership` setting
// turns the rule off for single-team deployments. The homes come from the request's
// loaders, which routing reads too, so the check costs no query of its own.

import type { UserRecord } from '../directory/types.js';
import type { LineHome } from '../lines/registry.js';
import type { RegisteredOperation } from './operation.js';
import { LineNotOwnedError } from '../errors/gateway-errors.js';
import type { RequestContext } from './request-context.js';
import { nonEmptyText } from '../lib/text.js';

const text = nonEmptyText;

/** Whether the rule applies to this caller at all. */
export async function ownershipEnforced(request: RequestContext, user: UserRecord): Promise<boolean> {
  if (user.superuser) return false;
  const { settings } = request.services;
  return (settings.cachedValues() ?? (await settings.values())).line_ownership === 'enforced';
}

/** Refuses a home that belongs to someone other than `user`. */
export function assertOwnHome(home: LineHome | null, user: UserRecord, kind: 'line' | 'SIM', named: string): void {
  if (home?.ownerId && home.ownerId !== user.id) throw new LineNotOwnedError(kind, named);
}

async function homes(loader: RequestContext['lineHomes'], keys: string[]): Promise<(LineHome | null)[]> {
  const loaded = await loader.loadMany(keys);
  return loaded.map((home) => {
    if (home instanceof Error) throw home;
    return home;
  });
}

/**
 * The lines of `mdns` that `user` may see: all of them when the rule does not apply to the
 * caller, else those with no owner or owned by the caller.
 */
export async function visibleLines(request: RequestContext, user: UserRecord, mdns: string[]): Promise<Set<string>> {
  if (!(await ownershipEnforced(request, user))) return new Set(mdns);
  const lineHomes = await homes(request.lineHomes, mdns);
  return new Set(mdns.filter((_, index) => !lineHomes[index]?.ownerId || lineHomes[index]?.ownerId === user.id));
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
  if (!(await ownershipEnforced(request, user))) return;
  const lineHomes = await homes(request.lineHomes, mdns);
  lineHomes.forEach((home, index) => assertOwnHome(home, user, 'line', mdns[index]!));
  // A SIM of a line just checked is that line's; only other SIMs need a lookup.
  const checked = new Set(lineHomes.map((home) => home?.sim));
  const others = sims.filter((sim) => !checked.has(sim));
  const simHomes = await homes(request.simHomes, others);
  simHomes.forEach((home, index) => assertOwnHome(home, user, 'SIM', others[index]!));
}
