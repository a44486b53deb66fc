// `{ ...base, ...extra }` for the request path. On Node 20's V8 every member an object literal
// adds after a leading spread costs ~0.6 µs (the clone cannot follow its shape's transitions, so
// each new member is defined at run time), where Object.assign onto a fresh object costs
// ~0.05 µs in all (measured; members a literal lists before a spread are fast too). For objects
// of the gateway's own making only: assigning a `__proto__` member would set the prototype.

export function merged<A extends object, B extends object>(base: A | undefined, extra: B): A & B {
  return Object.assign({}, base, extra);
}
