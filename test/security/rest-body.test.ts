// A flat megabyte sent to a REST write path by an authenticated client (249,000 empty objects,
// 499,000 numbers or 60,000 objects of snake_case keys, as a list field, a string field, an enum
// field or an unknown one) is answered with the same 422 as the same body with a few items (one
// over the list's limit), and changes nothing: the answer does not
// grow with the body, and neither does the work (the keys are put in camelCase only where
// validation reads them, test/rest/body-keys.test.ts). An object of more than MAX_JSON_KEYS keys
// anywhere in a REST body is refused (422 json_invalid) from the scan before JSON.parse, as on
// GraphQL. Through the real gateway and the sandbox carriers; no timing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_KEYS } from '../../src/http/json-depth.js';
import { MAX_BULK_ACTIVATIONS } from '../../src/operations/activation/activate-sims.js';
import { activationBody } from '../e2e/activation/activations.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { seedLine, type SeededLine } from '../support/lines.js';
import { ALL_PLANS, createPlans } from '../support/plans.js';

let gateway: TestGateway;
let line: SeededLine;

beforeAll(async () => {
  gateway = await startGateway();
  await createPlans(gateway);
  line = await seedLine(gateway);
}, 60_000);
afterAll(() => gateway.close());

const transactions = () => gateway.app.services.db.transaction.count();
const lineStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getUsage(mdn)).lineStatus;
/** A user of its own for each request: bulk activation allows 10 an hour. */
const post = async (path: string, body: string) => {
  const { token } = await gateway.user({ plans: ALL_PLANS });
  return gateway.rest<{ detail: unknown }>('POST', path, { token, body });
};

/** A JSON list of `count` copies of `item` (JSON text). */
const list = (count: number, item: string) => `[${Array(count).fill(item).join(',')}]`;
const OBJECTS = 249_000;
const NUMBERS = 499_000;
const keys = (count: number) => Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',');

describe('a flat megabyte on a REST write path', () => {
  const mdn = () => `"mdn":"${line.mdn}"`;
  // [what, path, the flood as a body, the same body with a few items]
  const cases: [string, string, () => string, () => string][] = [
    [
      '249,000 empty objects as the activations of a bulk activation',
      '/sim/activate/bulk/',
      () => `{"activations":${list(OBJECTS, '{}')}}`,
      () => `{"activations":${list(MAX_BULK_ACTIVATIONS + 1, '{}')}}`,
    ],
    [
      '499,000 numbers as the activations of a bulk activation',
      '/sim/activate/bulk/',
      () => `{"activations":${list(NUMBERS, '0')}}`,
      () => `{"activations":${list(MAX_BULK_ACTIVATIONS + 1, '0')}}`,
    ],
    [
      '60,000 objects with snake_case keys as the sim of an activation',
      '/sim/activate/',
      () => JSON.stringify({ ...activationBody(), sim: 'S' }).replace('"S"', list(60_000, '{"plan_id":1}')),
      // As many items as a string field's length limit needs to say its own message too.
      () => JSON.stringify({ ...activationBody(), sim: Array(30).fill({ plan_id: 1 }) }),
    ],
    [
      '60,000 objects with snake_case keys in an unknown member of an activation (a bad state)',
      '/sim/activate/',
      () =>
        JSON.stringify({ ...activationBody({ state: 'ga' }), extra: 'E' }).replace(
          '"E"',
          list(60_000, '{"zip_code":1}'),
        ),
      () => JSON.stringify(activationBody({ state: 'ga' })),
    ],
    [
      '499,000 numbers as the service of a suspension',
      '/sim/suspend/',
      () => `{${mdn()},"service":${list(NUMBERS, '0')}}`,
      () => `{${mdn()},"service":[0]}`,
    ],
    [
      '499,000 numbers as the language of a voicemail language change',
      '/sim/voicemail/language/',
      () => `{${mdn()},"language":${list(NUMBERS, '0')}}`,
      () => `{${mdn()},"language":[0]}`,
    ],
  ];

  it.each(cases)(
    '%s: the 422 of the same body with a few items, nothing changed',
    async (_what, path, flood, small) => {
      const before = await transactions();
      const body = flood();
      expect(body.length).toBeGreaterThan(700_000);
      expect(body.length).toBeLessThan(1_000_000);
      const answer = await post(path, body);
      const expected = await post(path, small());
      expect(expected.status).toBe(422);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual(expected.body);
      // The spec's shape, and a short list: the issues of the schema, never one per item.
      const detail = answer.body.detail as { type: string; loc: unknown[]; msg: string }[];
      expect(detail.length).toBeGreaterThan(0);
      expect(detail.length).toBeLessThanOrEqual(6);
      for (const issue of detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
      expect(await transactions()).toBe(before);
      expect(await lineStatus(line.mdn)).toBe('ACTIVE');
    },
    60_000,
  );

  it('names the bulk activation limit, the single-activation field and the bad enum as before', async () => {
    const bulk = await post('/sim/activate/bulk/', `{"activations":${list(OBJECTS, '{}')}}`);
    expect(bulk.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'activations'],
          msg: `activations must contain at most ${MAX_BULK_ACTIVATIONS} activations`,
        },
      ],
    });
    const sim = await post('/sim/activate/', JSON.stringify({ ...activationBody(), sim: [] }));
    expect(sim.body).toEqual({
      detail: [{ type: 'string_type', loc: ['body', 'sim'], msg: 'Input should be a valid string' }],
    });
    const service = await post('/sim/suspend/', `{"mdn":"${line.mdn}","service":${list(NUMBERS, '0')}}`);
    expect(service.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'service'], msg: 'service must be VOICE, SMS or DATA' }],
    });
  }, 60_000);

  it('still reads every item of a list within its limit, with its keys in camelCase', async () => {
    const items = Array.from({ length: MAX_BULK_ACTIVATIONS }, () => activationBody({ zip_code: 'bad' }));
    const answer = await post('/sim/activate/bulk/', JSON.stringify({ activations: items }));
    expect(answer.status).toBe(422);
    const detail = answer.body.detail as { loc: unknown[] }[];
    expect(detail).toHaveLength(MAX_BULK_ACTIVATIONS);
    expect(detail.map((issue) => issue.loc)).toEqual(items.map((_, i) => ['body', 'activations', i, 'zip_code']));
  }, 60_000);
});

describe(`an object of more than MAX_JSON_KEYS (${MAX_JSON_KEYS}) keys in a REST body`, () => {
  const refused = {
    detail: [{ type: 'json_invalid', loc: ['body'], msg: `A JSON object has more than ${MAX_JSON_KEYS} keys` }],
  };

  it('is refused with 422 json_invalid before it is parsed, at the top or nested, and changes nothing', async () => {
    const before = await transactions();
    const top = await post('/sim/suspend/', `{"mdn":"${line.mdn}",${keys(60_000)}}`);
    expect(top.status).toBe(422);
    expect(top.body).toEqual(refused);
    const nested = await post('/sim/activate/bulk/', `{"activations":[{${keys(MAX_JSON_KEYS + 1)}}]}`);
    expect(nested.status).toBe(422);
    expect(nested.body).toEqual(refused);
    // Keys inside a string are not keys.
    const quoted = await post('/sim/suspend/', JSON.stringify({ mdn: line.mdn, service: `{${keys(2_000)}}` }));
    expect(quoted.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'service'], msg: 'service must be VOICE, SMS or DATA' }],
    });
    expect(await transactions()).toBe(before);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
  }, 60_000);

  it('is read as before at exactly MAX_JSON_KEYS keys: unknown members ignored, the bad field named', async () => {
    const before = await transactions();
    const answer = await post('/sim/suspend/', `{"mdn":"${line.mdn}","service":"ALL",${keys(MAX_JSON_KEYS - 2)}}`);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'service'], msg: 'service must be VOICE, SMS or DATA' }],
    });
    expect(await transactions()).toBe(before);
  }, 60_000);
});
