// Reading optional string members of validated inputs, where an empty string means "not given".

/** `value` when it is a non-empty string, else undefined. */
export const nonEmptyText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
