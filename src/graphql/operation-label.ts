// A GraphQL operation name as a metric label: the client chooses it, so it is bounded in form
// (a GraphQL name of at most 64 characters, no run of digits that could be a line or a SIM)
// and in number (the first `max` distinct names; later ones are `other`).

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const DIGITS = /\d{6}/;

export function createOperationLabeller(max = 200): (name: string | null | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'anonymous';
    if (!NAME.test(name) || DIGITS.test(name)) return 'invalid';
    if (seen.has(name)) return name;
    if (seen.size >= max) return 'other';
    seen.add(name);
    return name;
  };
}
