// Refusals of a whole GraphQL request at the edge, one shape for all of them: the status, and
// `{errors: [{message, extensions: {code, status}}]}` with the same status in
// `extensions.status`. A mutation sent by GET is a 405 METHOD_NOT_ALLOWED like any other
// method the endpoint refuses; an Accept header nothing can be answered in is a 406 with a
// body; a body without a query is a 400 BAD_REQUEST whatever the client accepts; a request
// without a valid token is a 401 whatever its body or method.

import { describe, expect, it } from 'vitest';
import { seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway();

const SUSPEND = 'mutation ($input: SuspendLineInput!) { suspendLine(input: $input) { status } }';

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: unknown;
}

async function send(
  path: string,
  init: { method?: string; token?: string | null; accept?: string; body?: unknown } = {},
): Promise<Answer> {
  const token = init.token === undefined ? (await gateway.user()).token : init.token;
  const response = await gateway.fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.accept ? { accept: init.accept } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    allow: response.headers.get('allow'),
    body: text ? (JSON.parse(text) as unknown) : text,
  };
}

const refusal = (code: string, status: number, message: unknown = expect.any(String)) => ({
  errors: [{ message, extensions: { code, status } }],
});

const query = (document: string, variables?: Record<string, unknown>) =>
  `/graphql?query=${encodeURIComponent(document)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}`;

describe('a mutation sent by GET', () => {
  it('is refused 405 METHOD_NOT_ALLOWED with Allow: POST, executing nothing, whatever the client accepts', async () => {
    const { token } = await gateway.user({ superuser: true });
    const line = await seedLine(gateway);
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json']) {
      const answer = await send(query(SUSPEND, { input: { mdn: line.mdn } }), { token, accept });
      expect(answer, accept).toMatchObject({
        status: 405,
        allow: 'POST',
        body: refusal('METHOD_NOT_ALLOWED', 405, 'Can only perform a mutation operation from a POST request.'),
      });
    }
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });
});
