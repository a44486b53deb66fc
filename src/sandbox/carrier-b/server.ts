// The carrier_b sandbox carrier over HTTP: one RPC endpoint, `POST /rpc/v3`, that unwraps the
// envelope, dispatches on `method` through the method table into a sandbox core, and wraps
// the answer (or the carrier's refusal) back into an envelope. See docs/carriers/carrier-b.md.

import { CarrierRejection } from '../../carriers/errors.js';
import type { CarrierOperations } from '../../carriers/types.js';
import {
  createSandboxServer,
  SandboxBadRequest,
  SandboxNotFound,
  type FaultSettings,
  type JsonReply,
  type SandboxControls,
  type SandboxServer,
} from '../http-kit.js';
import { basicAuthenticator, type CarrierBCredentials } from './auth.js';
import { faultReply, parseEnvelope, PROTOCOL_FAULTS, requestIdOf, resultReply, RpcProtocolFault } from './envelope.js';
import { methodTable } from './method-table.js';

export interface CarrierBSandboxOptions {
  core: CarrierOperations & SandboxControls;
  credentials: CarrierBCredentials;
  faults?: FaultSettings;
}

export const CARRIER_B_RPC_PATH = '/rpc/v3';

const UNAUTHENTICATED: JsonReply = {
  status: 401,
  body: { authFailure: { scheme: 'Basic', reason: 'Account id or API secret not accepted' } },
};

const INTERNAL_ERROR: JsonReply = {
  status: 500,
  body: { serverError: 'Internal error; the request may be retried with the same requestId' },
};

export function createCarrierBSandboxServer(options: CarrierBSandboxOptions): SandboxServer {
  const methods = methodTable();
  const authenticate = basicAuthenticator(options.credentials);

  async function dispatch(body: unknown): Promise<JsonReply> {
    const echoed = requestIdOf(body);
    try {
      const envelope = parseEnvelope(body);
      const method = methods.get(envelope.method);
      if (!method) throw new RpcProtocolFault(PROTOCOL_FAULTS.unknownMethod, `Method not found: ${envelope.method}`);
      return resultReply(envelope.requestId, await method.invoke(options.core, envelope.params, envelope.requestId));
    } catch (error) {
      if (error instanceof CarrierRejection) return faultReply(echoed, error.code, error.text);
      if (error instanceof RpcProtocolFault) return faultReply(echoed, error.code, error.message);
      throw error;
    }
  }

  return createSandboxServer({
    routes: [{ method: 'POST', path: CARRIER_B_RPC_PATH, handle: ({ body }) => dispatch(body) }],
    authenticate,
    unauthenticated: () => UNAUTHENTICATED,
    renderError,
    controls: options.core,
    ...(options.faults ? { faults: options.faults } : {}),
  });
}

function renderError(error: unknown): JsonReply {
  if (error instanceof SandboxBadRequest) return faultReply(null, PROTOCOL_FAULTS.unparseable, error.message, 400);
  if (error instanceof SandboxNotFound)
    return faultReply(null, PROTOCOL_FAULTS.noSuchEndpoint, `Only POST ${CARRIER_B_RPC_PATH} exists`, 404);
  // Whatever else went wrong stays in the sandbox's own log; the caller learns nothing of it.
  console.error('carrier_b sandbox: unexpected error', error);
  return INTERNAL_ERROR;
}
