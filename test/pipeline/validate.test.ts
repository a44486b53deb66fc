// How a 422 names an input's members on each surface (src/pipeline/validate.ts): REST keeps the
// spec's snake_case in `loc` and messages; GraphQL gives the argument path and renames the
// input's own members (whole words only) in messages; without a surface (the admin CLI) the
// members stay under `input`, messages as written.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ValidationFailedError } from '../../src/errors/gateway-errors.js';
import { FIELD_ARGUMENTS, INPUT_ARGUMENT, validateInput, type InputPlace } from '../../src/pipeline/validate.js';

const schema = z.object({
  zipCode: z.string().regex(/^\d{5}$/, 'zip_code must be 5 digits (not zip_code_plus4; default_carrier is a setting)'),
  items: z.array(z.object({ subscriptionId: z.string().min(1, 'subscription_id must not be empty') })).optional(),
});

function refusal(place?: InputPlace): { message: string; issues: unknown } {
  try {
    validateInput(schema, { zipCode: '1', items: [{ subscriptionId: '' }] }, place);
  } catch (error) {
    const { message, issues } = error as ValidationFailedError;
    return { message, issues };
  }
  throw new Error('validated');
}

describe('validateInput', () => {
  it('REST: the source and snake_case path, messages as written', () => {
    expect(refusal({ sources: new Map([['zipCode', 'path']]) })).toEqual({
      message:
        'zip_code: zip_code must be 5 digits (not zip_code_plus4; default_carrier is a setting); items.0.subscription_id: subscription_id must not be empty',
      issues: [
        {
          type: 'value_error',
          loc: ['path', 'zip_code'],
          msg: 'zip_code must be 5 digits (not zip_code_plus4; default_carrier is a setting)',
        },
        { type: 'value_error', loc: ['body', 'items', 0, 'subscription_id'], msg: 'subscription_id must not be empty' },
      ],
    });
  });

  it("GraphQL, a field's own arguments: the argument path, members renamed in messages", () => {
    expect(refusal({ graphql: FIELD_ARGUMENTS })).toEqual({
      message:
        'zipCode: zipCode must be 5 digits (not zip_code_plus4; default_carrier is a setting); items.0.subscriptionId: subscriptionId must not be empty',
      issues: [
        {
          type: 'value_error',
          loc: ['zipCode'],
          msg: 'zipCode must be 5 digits (not zip_code_plus4; default_carrier is a setting)',
        },
        { type: 'value_error', loc: ['items', 0, 'subscriptionId'], msg: 'subscriptionId must not be empty' },
      ],
    });
  });

  it("GraphQL, a mutation's input: under `input`", () => {
    const { message, issues } = refusal({ graphql: INPUT_ARGUMENT });
    expect(message).toBe(
      'zipCode: zipCode must be 5 digits (not zip_code_plus4; default_carrier is a setting); items.0.subscriptionId: subscriptionId must not be empty',
    );
    expect(issues).toEqual([
      expect.objectContaining({ loc: ['input', 'zipCode'] }),
      expect.objectContaining({ loc: ['input', 'items', 0, 'subscriptionId'] }),
    ]);
  });

  it('no surface (the admin CLI): under `input`, messages as written', () => {
    expect(refusal()).toMatchObject({
      message:
        'zipCode: zip_code must be 5 digits (not zip_code_plus4; default_carrier is a setting); items.0.subscriptionId: subscription_id must not be empty',
      issues: [
        expect.objectContaining({ loc: ['input', 'zipCode'] }),
        expect.objectContaining({ loc: ['input', 'items', 0, 'subscriptionId'] }),
      ],
    });
  });
});
