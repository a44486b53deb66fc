// The refusal of another user's line: 403 / FORBIDDEN with the spec's failure envelope, a
// message that names the line (cut to a sane length) and never its owner.

import { describe, expect, it } from 'vitest';
import { LineNotOwnedError } from '../../src/errors/gateway-errors.js';

describe('LineNotOwnedError', () => {
  it('is a 403 with the failure envelope and the FORBIDDEN code', () => {
    const error = new LineNotOwnedError('line', '6465550001');
    expect({ status: error.status, code: error.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(error.restBody()).toEqual({
      status: 'failure',
      message: 'Line 6465550001 belongs to another user',
      code: 'HTTP_403',
    });
    expect(new LineNotOwnedError('SIM', '89010000000000000001').message).toBe(
      'The line of SIM 89010000000000000001 belongs to another user',
    );
  });

  it('cuts an echoed value to 32 characters', () => {
    const error = new LineNotOwnedError('SIM', 'A'.repeat(10_000));
    expect(error.message).toBe(`The line of SIM ${'A'.repeat(32)}… belongs to another user`);
  });
});
