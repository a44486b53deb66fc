// GET /metrics: Prometheus exposition for operators, behind METRICS_TOKEN (a user's token,
// even a superuser's, is not a scrape credential).

import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789abcdef';

// On a real port: a chunked body reaches the pipeline only over a socket (in-process requests
// carry their length).
const gateway = useGateway({ env: { METRICS_TOKEN }, listen: true });

async function scrape(token?: string): Promise<{ status: number; text: string }> {
  const response = await gateway.fetch('/metrics', { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text() };
}

describe('/metrics', () => {
  it("needs the metrics token; user tokens, even a superuser's, are refused", async () => {
    const { token } = await gateway.user();
    const { token: admin } = await gateway.user({ superuser: true });
    expect((await scrape()).status).toBe(401);
    expect((await scrape(token)).status).toBe(401);
    expect((await scrape(admin)).status).toBe(401);
    expect((await scrape(METRICS_TOKEN)).status).toBe(200);
  });

  it('counts operations by status and carrier outcomes, without naming lines or users', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token });
    await gateway.rest('GET', '/sim/usage/5550001111', { token });
    await gateway.rest('GET', '/sim/usage/12', { token });
    const { status, text } = await scrape(METRICS_TOKEN);
    expect(status).toBe(200);
    expect(text).toMatch(/line_gateway_operation_seconds_count\{operation="usage",status="200"\} 1/);
    expect(text).toMatch(/line_gateway_operation_seconds_count\{operation="usage",status="400"\} 1/);
    expect(text).toMatch(/line_gateway_operation_seconds_count\{operation="usage",status="422"\} 1/);
    expect(text).toMatch(/line_gateway_carrier_operations_total\{carrier="321",outcome="answered"\} 1/);
    expect(text).toMatch(/line_gateway_carrier_operations_total\{carrier="321",outcome="refused"\} 1/);
    expect(text).toContain('\nprocess_resident_memory_bytes ');
    expect(text).not.toContain('line_gateway_process_');
    expect(text).not.toContain(line.mdn);
  });

  it('counts a body too large to read (chunked, no length declared) as a 413, not a 500', async () => {
    const { token } = await gateway.user();
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(
        `${gateway.url}/sim/voicemail/reset/`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      // Chunked (no Content-Length), 2 MB against the 1 MB limit; the gateway may cut it short.
      outgoing.on('error', () => undefined);
      outgoing.on('close', () => reject(new Error('closed without an answer')));
      outgoing.write(`{"mdn":"3215550001","pad":"`);
      for (let sent = 0; sent < 2 * 1024 * 1024; sent += 64 * 1024) outgoing.write('x'.repeat(64 * 1024));
      outgoing.end('"}');
    });
    expect(status).toBe(413);
    const { text } = await scrape(METRICS_TOKEN);
    // Counted as a 413 when the limit was crossed inside the pipeline; not at all when the edge
    // cut the body before the operation began (which depends on how the chunks arrive).
    expect(text).not.toMatch(/operation="resetVoicemailPassword",status="(?!413")/);
  });
});
