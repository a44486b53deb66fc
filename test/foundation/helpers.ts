// Kept for test files outside the test kit's part of the tree (security, recovery, release,
// observability, the CLI and process tests), which import from here: everything now lives in
// test/support/. New code imports test/support/ directly; this file goes once they do.

import type { CarrierId } from '../../src/carriers/types.js';
import type { TestGateway } from '../support/gateway.js';
import { seedUnknownLine } from '../support/lines.js';

export { eventually } from '../support/eventually.js';
export { startReplica } from '../support/gateway.js';
export { REPO_ROOT, run, spawnIn, type ProcessResult, type RunningProcess } from '../support/processes.js';
export { errorOf } from '../support/surfaces.js';
export { jtiOf, signToken, unsignedToken } from '../support/tokens.js';

/** An ACTIVE line seeded directly on a sandbox core (the gateway does not know it yet). */
export const activeLine = (gateway: TestGateway, carrier: CarrierId = '321') => seedUnknownLine(gateway, { carrier, carrierPlanId: 'SOC-BASIC' });
