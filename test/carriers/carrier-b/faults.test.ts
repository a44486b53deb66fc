// Transport faults between the carrier_b adapter and its sandbox, injected through the
// sandbox's /_sandbox/faults control: each becomes a CarrierFault of the right kind, writes
// report an unknown outcome, and nothing is left as an unhandled rejection.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCarrierBAdapter, type CarrierBAdapter } from '../../../src/carriers/carrier-b/adapter.js';
import { CarrierFault } from '../../../src/carriers/errors.js';
import { caught, closedPortUrl, CREDENTIALS, setFaults, startSandbox, type RunningSandbox } from './sandbox-helpers.js';

const SIM = '8901260000000000777';

let sandbox: RunningSandbox;
let mdn: string;
const adapters: CarrierBAdapter[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

function adapterFor(url: string, timeoutMs: number, retries = 0): CarrierBAdapter {
  const adapter = createCarrierBAdapter({ baseUrl: url, ...CREDENTIALS, timeoutMs, retries });
  adapters.push(adapter);
  return adapter;
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  sandbox = await startSandbox();
  const line = await sandbox.core.activate({
    transactionId: 'ACT_FAULTS',
    sim: SIM,
    carrierPlanId: 'BASIC1GB',
    zipCode: '62701',
    address: { address1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
    isEsim: false,
    language: 'ENGL',
  });
  mdn = line.mdn;
});

afterEach(async () => {
  await setFaults(sandbox.url, {});
});

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.close()));
  await sandbox.server.close();
  // Give any stray promise a turn to surface before checking.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('carrier_b adapter transport faults', () => {
  it('latency beyond the timeout is a timeout; a write then has an unknown outcome', async () => {
    await setFaults(sandbox.url, { latency_ms: 400 });
    const adapter = adapterFor(sandbox.url, 100);

    const read = await caught(adapter.getUsage(mdn));
    expect(read).toBeInstanceOf(CarrierFault);
    expect(read).toMatchObject({ carrier: 'carrier_b', kind: 'timeout', outcomeKnown: true });

    const write = await caught(adapter.suspend({ transactionId: 'SUSPEND_TIMEOUT_1', mdn }));
    expect(write).toBeInstanceOf(CarrierFault);
    expect(write).toMatchObject({ kind: 'timeout', outcomeKnown: false });

    // The carrier may well have applied it; retrying with the same transaction id is safe and
    // settles the outcome: the line is suspended exactly once, and the retry is not refused.
    await setFaults(sandbox.url, {});
    const patient = adapterFor(sandbox.url, 5000);
    await patient.suspend({ transactionId: 'SUSPEND_TIMEOUT_1', mdn });
    expect((await patient.getUsage(mdn)).lineStatus).toBe('SUSPENDED');
    await patient.restore({ transactionId: 'RESTORE_TIMEOUT_1', mdn });
  });

  it('5xx answers are server errors, also after retries', async () => {
    await setFaults(sandbox.url, { error_rate: 1 });
    expect(await caught(adapterFor(sandbox.url, 2000).getCoverage('62701'))).toMatchObject({
      kind: 'server_error',
      outcomeKnown: true,
    });
    const retried = adapterFor(sandbox.url, 2000, 2);
    expect(await caught(retried.suspend({ transactionId: 'SUSPEND_5XX_1', mdn }))).toMatchObject({
      kind: 'server_error',
      outcomeKnown: false,
    });
  });

  it('a refused connection is unreachable', async () => {
    const adapter = adapterFor(await closedPortUrl(), 1000);
    const read = await caught(adapter.getDevice('356938035643809'));
    expect(read).toBeInstanceOf(CarrierFault);
    expect(read).toMatchObject({ kind: 'unreachable', outcomeKnown: true });
    expect(await caught(adapter.cancelDeviceLocation({ transactionId: 'CANCEL_LOC_REFUSED', mdn }))).toMatchObject({
      kind: 'unreachable',
    });
  });

  it('malformed JSON is a bad response', async () => {
    await setFaults(sandbox.url, { garbage_rate: 1 });
    const adapter = adapterFor(sandbox.url, 2000);
    expect(await caught(adapter.getNetworkStatus(mdn))).toMatchObject({ kind: 'bad_response', outcomeKnown: true });
    expect(
      await caught(adapter.setVoicemailLanguage({ transactionId: 'VM_LANG_GARBAGE', mdn, language: 'SPAN' })),
    ).toMatchObject({
      kind: 'bad_response',
      outcomeKnown: false,
    });
  });

  it('a dropped connection is unreachable, with an unknown outcome for a write', async () => {
    await setFaults(sandbox.url, { drop_rate: 1 });
    const adapter = adapterFor(sandbox.url, 2000, 1);
    const read = await caught(adapter.getSimDetails(SIM));
    expect(read).toBeInstanceOf(CarrierFault);
    expect(read).toMatchObject({ kind: 'unreachable', outcomeKnown: true });
    expect(await caught(adapter.resetVoicemailPassword({ transactionId: 'VM_RESET_DROP', mdn }))).toMatchObject({
      kind: 'unreachable',
      outcomeKnown: false,
    });
  });

  it('recovers once the faults are gone', async () => {
    await setFaults(sandbox.url, { drop_rate: 1 });
    const adapter = adapterFor(sandbox.url, 2000);
    await caught(adapter.getUsage(mdn));
    await setFaults(sandbox.url, {});
    expect((await adapter.getUsage(mdn)).mdn).toBe(mdn);
  });
});
