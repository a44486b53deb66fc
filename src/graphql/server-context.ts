// What server.ts hands Yoga for each request: the node request, its id, and the caller,
// authenticated once on first use (before the GraphQL document is parsed, so an anonymous
// request costs no parse).

import type { IncomingMessage } from 'node:http';
import type { AccessRecord } from '../http/access-log.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { JsonBody } from './request-params.js';

export interface GraphQLServerContext {
  req: IncomingMessage;
  requestId: string;
  /** The request's access record: the GraphQL operation goes on it. */
  access: AccessRecord;
  /** The request's context (caller or why there is none), built once and shared by every plugin. */
  requestContext(): Promise<RequestContext>;
  /** The body, when the edge read it for the direct lane: parsed once, by whichever lane asks first. */
  body?: JsonBody;
}
