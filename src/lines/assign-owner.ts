// A superuser's assignment of a line to a user (or to nobody), for lines that existed before
// the gateway or that change hands. A line the gateway does not know yet is learned from the
// carriers' service records: the named carrier, else every enabled carrier in turn; an MDN
// no carrier knows is refused (404) and nothing is recorded.

import { CarrierFault, CarrierRejection } from '../carriers/errors.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { CARRIER_IDS, type CarrierId, type LineStatus } from '../carriers/types.js';
import type { Directory } from '../directory/directory.js';
import type { UserRecord } from '../directory/types.js';
import {
  CarrierDisabledError,
  CarrierUnavailableError,
  InputRefusal,
  NotFoundError,
} from '../errors/gateway-errors.js';
import type { SettingsStore } from '../settings/store.js';
import type { LineHome, LineRegistry } from './registry.js';

export interface OwnerAssignment {
  mdn: string;
  /** User name; null makes the line unowned (every user may act on it again). */
  user: string | null;
  /** Where to look for a line the gateway does not know; refused when it contradicts a known line. */
  carrier?: CarrierId;
}

export interface AssignedLine {
  mdn: string;
  sim: string;
  carrier: CarrierId;
  status: string;
  /** Name of the owner, or null. */
  owner: string | null;
}

export interface AssignmentServices {
  lines: LineRegistry;
  directory: Directory;
  settings: SettingsStore;
  /** Asked only for a line the registry does not hold (the CLI connects carriers only then). */
  carriers: () => Promise<CarrierRegistry>;
}

export async function assignLineOwner(
  services: AssignmentServices,
  assignment: OwnerAssignment,
): Promise<AssignedLine> {
  const resolution = await resolveAssignment(services, assignment);
  const { owner, home } = resolution;
  if (!resolution.known) {
    const { mdn, sim, carrier, status } = resolution.home;
    await services.lines.record({ mdn, sim, carrier, status });
  }
  await services.lines.setOwner(home.mdn, owner?.id ?? null);
  return { mdn: home.mdn, sim: home.sim, carrier: home.carrier, status: home.status, owner: owner?.name ?? null };
}

/**
 * What `assignLineOwner` would do, writing nothing (dry runs): the same refusals (unknown user,
 * a carrier contradicting a known line, a line no carrier knows) and the line as it would be.
 */
export async function previewLineOwner(
  services: AssignmentServices,
  assignment: OwnerAssignment,
): Promise<AssignedLine & { known: boolean }> {
  const { owner, home, known } = await resolveAssignment(services, assignment);
  return {
    mdn: home.mdn,
    sim: home.sim,
    carrier: home.carrier,
    status: home.status,
    owner: owner?.name ?? null,
    known,
  };
}

/** A line found at a carrier: its status is the carrier's. */
type FoundLine = LineHome & { status: LineStatus };

type Resolution = { owner: UserRecord | null } & ({ known: true; home: LineHome } | { known: false; home: FoundLine });

async function resolveAssignment(services: AssignmentServices, assignment: OwnerAssignment): Promise<Resolution> {
  const { mdn, carrier } = assignment;
  // The user first: a misspelt name must not leave a half-done assignment behind.
  const owner = assignment.user === null ? null : await services.directory.userByName(assignment.user);
  const home: LineHome | null = (await services.lines.byMdns([mdn])).get(mdn) ?? null;
  if (home && carrier && home.carrier !== carrier) {
    throw new InputRefusal('carrier', `line ${mdn} is known on carrier ${home.carrier}, not ${carrier}`);
  }
  if (home) return { owner, home, known: true };
  return { owner, home: await findLine(services, mdn, carrier), known: false };
}

/** Finds the line at a carrier (by its service record, a read) and returns where it lives. */
async function findLine(services: AssignmentServices, mdn: string, named: CarrierId | undefined): Promise<FoundLine> {
  const enabled = (await services.settings.values()).carriers_enabled;
  if (named && !enabled[named]) throw new CarrierDisabledError(named);
  const candidates = named ? [named] : CARRIER_IDS.filter((carrier) => enabled[carrier]);
  const carriers = await services.carriers();
  let fault: CarrierFault | null = null;
  for (const carrier of candidates) {
    try {
      const profile = await carriers.adapter(carrier).getServiceProfile(mdn);
      return { mdn, sim: profile.sim, carrier, status: profile.lineStatus, ownerId: null };
    } catch (error) {
      // A refusal means "not here": try the next carrier. A fault leaves the question open.
      if (error instanceof CarrierFault) fault = error;
      else if (!(error instanceof CarrierRejection)) throw error;
    }
  }
  if (fault)
    throw new CarrierUnavailableError(
      `${fault.message}; line ${mdn} could not be looked up`,
      fault.kind === 'timeout',
      true,
      null,
    );
  throw new NotFoundError(`Line ${mdn} is not known to ${named ? `carrier ${named}` : 'any enabled carrier'}`);
}
