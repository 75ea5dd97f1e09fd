/**
 * The record-by-record import of a batch, in one transaction: each record's
 * holders read, planned by planImport(), and written inside its own savepoint,
 * so a key another writer took meanwhile undoes only that record (a conflict).
 * A round trip or more per record: the bulk import (postgres-bulk-import.ts)
 * falls back to it only when its set-based write keeps losing races.
 */
import type { TransactionSql } from 'postgres';
import type { EventOrigin } from '../../events/event-origin.js';
import { planImport, updatedUser, updateOutcome, type ImportOutcome, type ImportUser, type OnConflict } from '../import-plan.js';
import { KeyConflictError } from '../store-errors.js';
import { holdersOf, insertUser, lockCurrent, replaceUser, type Feed } from './postgres-user-writes.js';

async function importOne(tx: TransactionSql, user: ImportUser, onConflict: OnConflict, now: string, feed: Feed, origin: EventOrigin): Promise<ImportOutcome> {
  const plan = planImport(await holdersOf(tx, user), onConflict);
  if (plan.action === 'conflict') return { status: 'conflict', key: plan.key };
  try {
    return await tx.savepoint(async (sp): Promise<ImportOutcome> => {
      if (plan.action === 'create') {
        await insertUser(sp, user, feed, now, origin);
        return { status: 'created', uid: user.uid };
      }
      const found = await lockCurrent(sp, plan.uid);
      if (found.status !== 'ok') throw new KeyConflictError('username');
      const update = updatedUser(user, found.value, now, onConflict);
      if ('next' in update && update.next) await replaceUser(sp, update.next, feed, origin);
      return updateOutcome(found.value.uid, update);
    });
  } catch (error) {
    // Another writer took a key between the holder check and the write.
    if (error instanceof KeyConflictError) return { status: 'conflict', key: error.key };
    throw error;
  }
}

/** The outcomes of `users`, in order; with `fail` they end at the first conflict. */
export async function importOneByOne(tx: TransactionSql, users: readonly ImportUser[], onConflict: OnConflict, now: string, feed: Feed, origin: EventOrigin): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const user of users) {
    const outcome = await importOne(tx, user, onConflict, now, feed, origin);
    outcomes.push(outcome);
    if (outcome.status === 'conflict' && onConflict === 'fail') break;
  }
  return outcomes;
}
