/**
 * A search page of the SQLite store reads each user's uid, stored representation and entity
 * tag (sqlite-search.ts PAGE_COLUMNS); a row without a representation (an earlier release
 * sharing the file updated it: migration 6's trigger clears it) comes with its columns, in the
 * page's own snapshot. Were it read again by uid after the snapshot, a user deleted in between
 * would be left out and a page of users that all matched would come back short:
 * users/user-search.ts reads one user more than the page to know whether a next page exists,
 * so a page one short says none does, and a client walking the links stops there while users
 * that existed unchanged throughout remain (seen against the running service: `limit` users
 * and no `Link`, with 1,032 users matching).
 *
 * Deterministic: a page of more than 200 users is made in slices, a turn of the event loop
 * between them (event-loop-slices.ts), and a delete's group commit runs in the turn after it
 * is asked (group-commit.ts, setImmediate): asked right after the search, it commits between
 * the page's second and third slices.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from '../../src/store/sqlite/sqlite-driver.js';
import { openTestStore, type OpenedTestStore } from '../helpers/stores.js';
import { newUser } from '../helpers/new-user.js';

const USERS = 500;
/** More than two slices (200 users each), fewer than the users that match. */
const LIMIT = 451;


describe('a SQLite search page whose rows have no stored representation, while one of its users is deleted', () => {
  let opened: OpenedTestStore;
  let uids: string[];
  before(async () => {
    opened = await openTestStore('sqlite');
    const now = new Date().toISOString();
    const users = Array.from({ length: USERS }, (_, i) => newUser(`rowword${i}`, now));
    await opened.store.importUsers(users, 'fail', now);
    uids = users.map((user) => user.uid).sort();
    // A process of an earlier release, sharing the file, updates every user: no representation.
    const earlier = new Database(opened.databaseUrl.slice('sqlite:'.length));
    earlier.pragma('busy_timeout = 5000');
    earlier.prepare('UPDATE users SET version = version + 1').run();
    assert.equal(earlier.prepare('SELECT count(*) FROM users WHERE representation IS NULL').pluck().get(), USERS);
    earlier.close();
  });
  after(() => opened.cleanup());

  it(`still holds ${LIMIT} users: ${USERS - 1} matched before, during and after it`, async () => {
    const page = opened.store.search({ filter: { words: ['rowword'] }, limit: LIMIT });
    // A user of the page's third slice (uid order), deleted while the page is made.
    const deleted = opened.store.delete(uids[LIMIT - 20] as string);
    const [{ value }, outcome] = await Promise.all([page, deleted]);
    assert.equal(outcome.status, 'ok');
    assert.equal(value.length, LIMIT, `the page holds ${value.length} users, though ${USERS - 1} matched throughout: a client reads it as the last page`);
  });
});
