// Webhook URLs: without WEBHOOK_ALLOW_PRIVATE_URLS only https to public addresses is accepted
// (422, nothing stored), and the address actually connected to is checked again at delivery, so
// a name that resolves to a private address (DNS rebinding) is refused there too.

import { describe, expect, it } from 'vitest';
import { isPrivateAddress, guardedLookup } from '../../src/events/url-guard.js';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway();

describe('registering a webhook URL without the private-range setting', () => {
  it.each([
    ['http://hooks.example.com/x', 'https'],
    ['https://127.0.0.1/hooks', 'loopback'],
    ['https://localhost:8443/hooks', 'loopback'],
    ['https://10.1.2.3/hooks', 'private'],
    ['https://192.168.0.10/hooks', 'private'],
    ['https://172.20.0.1/hooks', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'metadata'],
    ['https://[::1]/hooks', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hooks', 'loopback'],
    ['https://[fd00:ec2::254]/hooks', 'private'],
    ['https://user:pass@hooks.example.com/x', 'user name'],
    ['not a url', 'absolute URL'],
  ])('refuses %s (422, nothing stored)', async (url, why) => {
    const { token } = await gateway.user({ superuser: true });
    const answer = await gateway.graphql(
      `mutation ($url: String!) { createWebhookEndpoint(input: { url: $url }) { endpoint { id } secret } }`,
      { token, variables: { url } },
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      status: 422,
      // Located as GraphQL locates every input member (REST's would be ['body', 'url']).
      issues: [{ loc: ['input', 'url'], msg: expect.stringContaining(why) }],
    });
    expect(await gateway.app.services.db.webhookEndpoint.count()).toBe(0);
  });
});

describe('addresses', () => {
  it('tells private from public addresses, IPv4 embedded in IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::ffff:7f00:1',
      'fe80::1',
      '224.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('fails a delivery connection whose name resolves to a loopback address (DNS rebinding)', async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (failure) => resolve(failure)),
    );
    expect(error?.code).toBe('EADDRNOTALLOWED');
    const allowed = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(true)('localhost', {}, (failure) => resolve(failure)),
    );
    expect(allowed).toBeNull();
  });
});
