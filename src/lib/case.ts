// The REST layer speaks snake_case, everything else camelCase (GraphQL type names PascalCase);
// these convert between them.

export const toSnake = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** `serviceInfo` → `ServiceInfo`: GraphQL type names derived from field names. */
export const toPascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
export const toCamel = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Deep key conversion; `undefined` members are dropped (absent in JSON, as in the spec). */
export function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) result[convert(key)] = convertKeys(member, convert);
  }
  return result;
}
