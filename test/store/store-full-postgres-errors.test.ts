/**
 * PostgreSQL's "no room to write" in the store's terms (src/store/postgres/postgres-errors.ts):
 * 53100 disk_full and 25006 read_only_sql_transaction are StoreFullError, not
 * "unavailable, retry shortly"; other resource errors and lost connections stay
 * StoreUnavailableError, and anything else is left as it is. The errors are the
 * driver's own class, as the server's answers arrive.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import postgres from 'postgres';
import { isStoreFull, storeFullOr, translatePostgresError } from '../../src/store/postgres/postgres-errors.js';
import { KeyConflictError, StoreFullError, StoreUnavailableError } from '../../src/store/store-errors.js';

const PostgresError = postgres.PostgresError as unknown as new (fields: { code: string; message: string }) => Error;
const serverError = (code: string, message: string) => new PostgresError({ code, message });

const diskFull = () => serverError('53100', 'could not extend file "base/16384/16385": No space left on device');
const readOnly = () => serverError('25006', 'cannot execute INSERT in a read-only transaction');

it('53100 disk_full and 25006 read_only_sql_transaction are StoreFullError, with the driver error as cause', () => {
  for (const [error, message, readOnlyStore] of [[diskFull(), 'the store is out of space', false], [readOnly(), 'the store is read-only', true]] as const) {
    assert.equal(error.name, 'PostgresError');
    assert.equal(isStoreFull(error), true);
    const translated = translatePostgresError(error);
    assert.ok(translated instanceof StoreFullError, `${(error as { code?: string }).code} → StoreFullError`);
    assert.equal(translated.cause, error);
    assert.equal(translated.message, message, 'says which: out of space, or read-only');
    assert.equal(translated.readOnly, readOnlyStore);
    const asIs = storeFullOr(error);
    assert.ok(asIs instanceof StoreFullError);
  }
});

it('other resource errors, operator interventions, lost connections and lost races stay StoreUnavailableError', () => {
  const unavailable = [
    serverError('53200', 'out of memory'),
    serverError('53300', 'too many connections'),
    serverError('57P01', 'terminating connection due to administrator command'),
    serverError('57014', 'canceling statement due to statement timeout'),
    serverError('40001', 'could not serialize access'),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  ];
  for (const error of unavailable) {
    assert.equal(isStoreFull(error), false);
    assert.ok(translatePostgresError(error) instanceof StoreUnavailableError, String((error as { code?: string }).code));
    assert.equal(storeFullOr(error), error, 'left to retries and translation');
  }
});

it('a defect or a store error is left as it is', () => {
  const unique = serverError('23505', 'duplicate key value violates unique constraint');
  const syntax = serverError('42601', 'syntax error at or near "SELEC"');
  const conflict = new KeyConflictError('username');
  const full = new StoreFullError();
  // A code alone does not make a server error: only PostgreSQL's own answers are read.
  const lookalike = Object.assign(new Error('not from the server'), { code: '53100' });
  for (const error of [unique, syntax, conflict, full, lookalike]) assert.equal(translatePostgresError(error), error);
});
