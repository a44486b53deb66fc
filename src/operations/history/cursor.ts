// The opaque cursor of a line's history: the position of one entry in its newest-first order
// (when it happened, then its kind and id to break ties), so a page read after new entries
// arrived continues exactly where the last one stopped. Base64url text, never parsed by clients.

/** What an entry is: a transaction, or a line event no transaction of this line carries. */
export type HistoryKind = 'transaction' | 'event';

export interface HistoryPosition {
  at: Date;
  kind: HistoryKind;
  id: string;
}

const VERSION = '1';
const KIND_CODES: Record<HistoryKind, string> = { transaction: 't', event: 'e' };
const KINDS_BY_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as HistoryKind]));
// Version, kind code, epoch milliseconds, then the id (which may itself hold colons).
const POSITION = /^(\d):([a-z]):(\d{1,15}):([\x21-\x7e]{1,100})$/;

/** Longest cursor text accepted (a 100-character id and its prefix, base64url-encoded). */
export const MAX_CURSOR_LENGTH = 200;

export function encodeCursor(position: HistoryPosition): string {
  const text = `${VERSION}:${KIND_CODES[position.kind]}:${position.at.getTime()}:${position.id}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The position a cursor names; undefined for anything this gateway did not write. */
export function decodeCursor(cursor: string): HistoryPosition | undefined {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || match[1] !== VERSION) return undefined;
  const kind = KINDS_BY_CODE.get(match[2]!);
  const at = new Date(Number(match[3]));
  if (!kind || Number.isNaN(at.getTime())) return undefined;
  return { at, kind, id: match[4]! };
}
