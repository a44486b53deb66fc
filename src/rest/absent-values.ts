// What a legacy client sends for a body field it leaves unset, read as absent: `null` for any
// optional field (the original service's models took `None` for every optional field, and
// GraphQL reads an explicit null as absent too), and "" for the fields where the spec gives the
// empty string that meaning (`service` of suspend and restore: empty = all).

import type { RegisteredOperation } from '../pipeline/operation.js';
import { objectShape, unwrap } from '../lib/zod-introspect.js';

export interface AbsentValues {
  /** Whether `value` given for the body field `name` (camelCase) means the field is absent. */
  (name: string, value: unknown): boolean;
}

export function absentValues(operation: RegisteredOperation): AbsentValues {
  const { shape } = objectShape(operation.input);
  const optional = new Set(Object.keys(shape).filter((name) => unwrap(shape[name]!).optional));
  const emptyIsAbsent = new Set(operation.rest?.emptyIsAbsent ?? []);
  return (name, value) => (value === null && optional.has(name)) || (value === '' && emptyIsAbsent.has(name));
}
