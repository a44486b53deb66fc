// Webhook URLs: without WEBHOOK_ALLOW_PRIVATE_URLS only https to public addresses is accepted
// (422, nothing stored), and the address actually connected to is checked again at delivery, so
// a name that resolves to a private address (DNS rebinding) is refused there too. An IPv6 form
// that carries an IPv4 address (compatible, mapped, translated, NAT64, 6to4, Teredo) is judged
// by that address.

import { describe, expect, it } from 'vitest';
import { isPrivateAddress, guardedLookup } from '../../src/events/url-guard.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway({ env: { OUTBOX_POLL_MS: '100', WEBHOOK_TIMEOUT_MS: '1000' } });

/** Literal hosts in reserved ranges or IPv6 forms that reach a private IPv4 address. */
const REFUSED_LITERALS = [
  ['https://[::127.0.0.1]/hooks', 'IPv4-compatible loopback (::7f00:1)'],
  ['https://[::ffff:0:7f00:1]/hooks', 'IPv4-translated (SIIT) loopback'],
  ['https://[64:ff9b::a9fe:a9fe]/hooks', 'NAT64 to the metadata address'],
  ['https://[64:ff9b:1::a00:1]/hooks', 'local-use NAT64'],
  ['https://[2002:7f00:1::]/hooks', '6to4 of a loopback address'],
  ['https://[2002:a9fe:a9fe::]/hooks', '6to4 of the metadata address'],
  ['https://[2002:c0a8:1::1]/hooks', '6to4 of a private address'],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', 'Teredo to a loopback client'],
  ['https://[fec0::1]/hooks', 'site-local'],
  ['https://[100::1]/hooks', 'discard-only'],
  ['https://192.0.2.10/hooks', 'TEST-NET-1'],
  ['https://198.51.100.7/hooks', 'TEST-NET-2'],
  ['https://203.0.113.9/hooks', 'TEST-NET-3'],
  ['https://240.0.0.1/hooks', 'reserved'],
] as const;

describe('registering a webhook URL without the private-range setting', () => {
  it.each<[string, string]>([
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
    ...REFUSED_LITERALS.map(([url]): [string, string] => [url, 'private']),
    ['https://user:pass@hooks.example.com/x', 'user name'],
    ['not a url', 'absolute URL'],
  ])('refuses %s (422, nothing stored)', async (url, why) => {
    const { token } = await gateway.user({ superuser: true });
    const before = await gateway.app.services.db.webhookEndpoint.count();
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
    expect(await gateway.app.services.db.webhookEndpoint.count()).toBe(before);
  });
});

describe('delivering to a URL stored before these rules', () => {
  it('refuses every attempt to a reserved or tunnelled private literal, connecting nowhere', async () => {
    const { user } = await gateway.user({ superuser: true });
    const db = gateway.app.services.db;
    const endpoints = await Promise.all(
      REFUSED_LITERALS.map(([url], index) =>
        db.webhookEndpoint.create({
          data: {
            id: `whe_stored_${index}`,
            url,
            eventTypes: '[]',
            secret: `whsec_${'s'.repeat(40)}`,
            createdBy: user.id,
          },
        }),
      ),
    );
    try {
      const line = await seedLine(gateway);
      const { token } = await gateway.user();
      expect((await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } })).status).toBe(200);
      const attempted = () =>
        db.webhookDelivery.findMany({
          where: { endpointId: { in: endpoints.map((endpoint) => endpoint.id) }, attemptLog: { some: {} } },
          include: { endpoint: true },
        });
      expect(await eventually(async () => (await attempted()).length === endpoints.length, 10_000)).toBe(true);
      for (const delivery of await attempted())
        expect(delivery.lastError, delivery.endpoint.url).toBe(
          'url must not point to a loopback, private, link-local, metadata or reserved address',
        );
    } finally {
      await db.webhookEndpoint.deleteMany({ where: { id: { in: endpoints.map((endpoint) => endpoint.id) } } });
    }
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
      '::',
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::808:808', // local-use NAT64, whatever it embeds
      '2002:7f00:1::',
      '2002:a9fe:a9fe::',
      '2002:0a00:0001:1::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
      'fec0::1',
      'feff::1',
      '100::1',
      '2001:2::1',
      '2001:db8::1',
      '3fff::1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.255',
      '240.0.0.1',
      '255.255.255.255',
      'fe80::1%eth0',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808', // NAT64 to a public address
      '2002:5db8:d822::1', // 6to4 of 93.184.216.34
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, client 8.8.8.8
      '192.0.3.1',
      '203.0.114.1',
    ])
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
