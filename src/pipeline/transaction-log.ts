// The transactions table as idempotency record and audit log: a transaction id is reserved
// (a unique insert, so two racing requests cannot both win) before the carrier is called,
// and completed with the answer the caller got, whatever it was.

import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { DuplicateTransactionError } from './errors.js';

export type TransactionStatus = 'pending' | 'success' | 'failure' | 'unknown' | 'error';

export interface TransactionRecord {
  id: string;
  userId: string;
  operation: string;
  carrier: string | null;
  mdn: string | null;
  sim: string | null;
  status: TransactionStatus;
  httpStatus: number | null;
  response: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** The operation's prefix followed by 12 uppercase hexadecimal characters. */
export function generateTransactionId(prefix: string): string {
  return prefix + randomBytes(6).toString('hex').toUpperCase();
}

export class TransactionLog {
  constructor(private readonly db: Database) {}

  async reserve(entry: { id: string; userId: string; operation: string; carrier: string | null; mdn?: string; sim?: string }): Promise<void> {
    try {
      await this.db.transaction.create({
        data: { id: entry.id, userId: entry.userId, operation: entry.operation, carrier: entry.carrier, mdn: entry.mdn ?? null, sim: entry.sim ?? null, status: 'pending' },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateTransactionError(entry.id);
      throw error;
    }
  }

  async complete(id: string, status: TransactionStatus, httpStatus: number, response: unknown): Promise<void> {
    await this.db.transaction.update({ where: { id }, data: { status, httpStatus, response: JSON.stringify(response) } });
  }

  async find(id: string): Promise<TransactionRecord | null> {
    const row = await this.db.transaction.findUnique({ where: { id } });
    if (!row) return null;
    return { ...row, status: row.status as TransactionStatus, response: row.response === null ? null : (JSON.parse(row.response) as unknown) };
  }
}
