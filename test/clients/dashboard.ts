// The README's dashboard screen, shared by the client tests: the query and a gateway with two
// lines owned by one user (and one line of another user, for refusals).

import '../../src/graphql/dashboard.js';
import type { CarrierId } from '../../src/carriers/types.js';
import { seedLine } from '../support/lines.js';
import type { TestGateway } from '../support/gateway.js';

export const SCREEN = `query Screen($mdns: [String!]!) {
  lines(mdns: $mdns) {
    id mdn carrier
    usage { status subscriberStatus planName balanceDetails { data } }
    networkStatus { status simStatus serviceCodes }
    simDetails { status iccidStatus wfcEligible }
  }
}`;

export const ONE_LINE = `query One($mdn: String!) {
  line(mdn: $mdn) {
    id mdn carrier
    usage { status subscriberStatus planName balanceDetails { data } }
    networkStatus { status simStatus serviceCodes }
    simDetails { status iccidStatus wfcEligible }
  }
}`;

export interface Screen {
  token: string;
  mdns: string[];
  /** A line the screen's user does not own. */
  foreign: string;
}

export async function seedScreen(gateway: TestGateway): Promise<Screen> {
  const { user, token } = await gateway.user();
  const other = await gateway.user();
  const owned = async (owner: string, carrier: CarrierId) => {
    const line = await seedLine(gateway, { carrier, register: false });
    await gateway.app.services.lines.record({ ...line, owner });
    return line.mdn;
  };
  return {
    token,
    mdns: [await owned(user.id, '321'), await owned(user.id, 'carrier_b')],
    foreign: await owned(other.user.id, '321'),
  };
}
