// A member of an answer that is worked out only if someone reads it. GraphQL reads only the
// fields a client selects, so a GraphQL-only operation can leave its costly members (a
// database listing, say) to be loaded when selected: `me { name }` then costs no query for
// the lines and plans it did not ask for. The GraphQL field resolvers (zod-to-graphql.ts)
// call `valueOf` on what they read; nothing else does, so an operation with a REST route must
// not use it (REST would serialize the marker, not the value).

class OnDemand<T> {
  private loaded: Promise<T> | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  value(): Promise<T> {
    return (this.loaded ??= this.load());
  }
}

/**
 * Typed as the value it stands for, so an operation's answer keeps its schema's type; the
 * load runs once, at the first read, and its result is shared by every later read.
 */
export function onDemand<T>(load: () => Promise<T>): T {
  return new OnDemand(load) as unknown as T;
}

/** What a resolver returns for a member: the loaded value of an on-demand member, else the member. */
export function valueOf(member: unknown): unknown {
  return member instanceof OnDemand ? member.value() : member;
}
