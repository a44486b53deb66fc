// `?dry_run=true` on a REST mutation path: the flag's parsing (true, false, or a 422 naming the
// query parameter, raised at the validation step like any other bad input).

import { ValidationFailedError } from '../errors/gateway-errors.js';
import { quote } from '../lib/quote.js';
import type { RestRoute } from './routes.js';

export type DryRunFlag = { dryRun: boolean } | { refusal: ValidationFailedError };

export function dryRunFlag(route: RestRoute, url: URL): DryRunFlag {
  if (route.operation.kind !== 'mutation') return { dryRun: false };
  const values = url.searchParams.getAll('dry_run');
  if (values.length === 0) return { dryRun: false };
  if (values.length === 1 && (values[0] === 'true' || values[0] === 'false')) return { dryRun: values[0] === 'true' };
  return {
    refusal: new ValidationFailedError([
      {
        type: 'bool_parsing',
        loc: ['query', 'dry_run'],
        msg: `dry_run must be true or false once, not ${JSON.stringify(quote(values.join(',')))}`,
      },
    ]),
  };
}
