// Headers that list alternatives with quality values (Accept, Accept-Encoding; RFC 9110
// §12.4.2), read one way for both: each entry's value, its other parameters and its quality.

export interface WeightedEntry {
  /** The media range or coding, as sent (trimmed). */
  value: string;
  /** Its parameters other than q, as sent (trimmed). */
  parameters: string[];
  /** 0 to 1; 1 when absent or malformed. */
  quality: number;
}

/** The header's entries in the client's order (empty entries skipped). */
export function weightedEntries(header: string): WeightedEntry[] {
  const entries: WeightedEntry[] = [];
  for (const entry of header.split(',')) {
    const [rawValue = '', ...rawParameters] = entry.split(';');
    const value = rawValue.trim();
    if (value === '') continue;
    let quality = 1;
    const parameters: string[] = [];
    for (const parameter of rawParameters) {
      const [name = '', given] = parameter.split('=', 2).map((part) => part.trim());
      if (name.toLowerCase() !== 'q' || given === undefined) {
        parameters.push(parameter.trim());
        continue;
      }
      const parsed = Number(given);
      if (given !== '' && Number.isFinite(parsed) && parsed >= 0 && parsed <= 1) quality = parsed;
    }
    entries.push({ value, parameters, quality });
  }
  return entries;
}
