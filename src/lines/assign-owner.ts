// A superuser's assignment of a line to a user (or to nobody), for lines that existed before
// the gateway or that change hands. A line the gateway does not know yet is learned from the
// carriers' service records: the named carrier, else every enabled carrier in turn; an MDN
// no carrier knows is refused (404) and nothing is recorded.

import { CarrierFault, CarrierRejection } from '../carriers/errors.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { CARRIER_IDS, type CarrierId } from '../carriers/types.js';
import type { Directory } from '../directory/directory.js';
import {
  CarrierDisabledError,
  CarrierUnavailableError,
  NotFoundError,
  ValidationFailedError,
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
  const { mdn, carrier } = assignment;
  // The user first: a misspelt name must not leave a half-done assignment behind.
  const owner = assignment.user === null ? null : await services.directory.userByName(assignment.user);
  let home: LineHome | null = (await services.lines.byMdns([mdn])).get(mdn) ?? null;
  if (home && carrier && home.carrier !== carrier) {
    throw new ValidationFailedError([
      {
        type: 'value_error',
        loc: ['body', 'carrier'],
        msg: `line ${mdn} is known on carrier ${home.carrier}, not ${carrier}`,
      },
    ]);
  }
  home ??= await learnLine(services, mdn, carrier);
  await services.lines.setOwner(mdn, owner?.id ?? null);
  return { mdn, sim: home.sim, carrier: home.carrier, status: home.status, owner: owner?.name ?? null };
}

/** Finds the line at a carrier, records where it lives (unowned) and returns its home. */
async function learnLine(services: AssignmentServices, mdn: string, named: CarrierId | undefined): Promise<LineHome> {
  const enabled = (await services.settings.values()).carriers_enabled;
  if (named && !enabled[named]) throw new CarrierDisabledError(named);
  const candidates = named ? [named] : CARRIER_IDS.filter((carrier) => enabled[carrier]);
  const carriers = await services.carriers();
  let fault: CarrierFault | null = null;
  for (const carrier of candidates) {
    try {
      const profile = await carriers.adapter(carrier).getServiceProfile(mdn);
      await services.lines.record({ mdn, sim: profile.sim, carrier, status: profile.lineStatus });
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
