// The allow-list of persisted GraphQL operations: a JSON file mapping the sha256 (hex) of each
// document to the document, read once at start-up (PERSISTED_OPERATIONS_FILE). Every entry is
// checked then — a hash that is not its document's, or a document that does not parse, stops
// the start — so a bad list never surfaces as a request error later.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';

export class PersistedOperationsError extends Error {
  override readonly name = 'PersistedOperationsError';
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Hash → document. */
export type PersistedOperations = ReadonlyMap<string, string>;

export function parsePersistedOperations(text: string, source: string): PersistedOperations {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PersistedOperationsError(`${source} is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PersistedOperationsError(`${source} must be a JSON object mapping sha256 hashes to GraphQL documents`);
  }
  const operations = new Map<string, string>();
  for (const [hash, document] of Object.entries(parsed)) {
    const entry = `${source}: entry ${JSON.stringify(hash.slice(0, 80))}`;
    if (typeof document !== 'string')
      throw new PersistedOperationsError(`${entry} must map to a GraphQL document (a string)`);
    if (sha256Hex(document) !== hash)
      throw new PersistedOperationsError(`${entry} is not the sha256 (lower-case hex) of its document`);
    try {
      parse(document);
    } catch (error) {
      throw new PersistedOperationsError(`${entry}: ${(error as Error).message}`);
    }
    operations.set(hash, document);
  }
  return operations;
}

/** The allow-list named by the configuration; empty when none is configured. */
export function loadPersistedOperations(path: string | undefined): PersistedOperations {
  if (!path) return new Map();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PersistedOperationsError(
      `PERSISTED_OPERATIONS_FILE ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parsePersistedOperations(text, `PERSISTED_OPERATIONS_FILE ${path}`);
}
