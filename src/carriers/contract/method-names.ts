// The method names of one contract area as a run-time list. The names are spelled once, as the
// keys of an object the compiler checks against the area's interface (a missing or extra name
// is a compile error here), so tests can walk the contract without a second, drifting list.

export function methodNames<Area>(names: Record<keyof Area & string, true>): readonly (keyof Area & string)[] {
  return Object.keys(names) as (keyof Area & string)[];
}
