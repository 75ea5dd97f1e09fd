/**
 * How the layout of SQLite's Idempotency-Key records changes what a keyed create
 * costs the database alone (docs/performance.md, "Idempotency-Key"): a create's
 * statements (a user row with a UUIDv7 uid, two key rows, an event row), in
 * transactions of 16 at synchronous=FULL in WAL mode, without a record and with
 * a record under each layout, on a fresh file each.
 *
 *   npm run build && node dist/bench/idempotency-layouts.js [creates, default 40000] [consecutive|random]
 *
 * Layouts: `without-rowid` (migration 2: rows ordered by scope and key),
 * `rowid` (migration 5: rows in insertion order, a unique index on scope and
 * key), `rowid-v7` (the same, with time-ordered keys: what a key that sorts after
 * the last one costs, against a random one), `hash` (rows in insertion order, an
 * index on an 8-byte hash of the key). Usernames (and the email addresses made
 * from them) are consecutive by default, so their key rows land beside the last
 * ones; `random` puts a random prefix first, as real names sort.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../src/store/sqlite/sqlite-driver.js';
import { v7 as uuidv7 } from 'uuid';

const CREATES = Number(process.argv[2] ?? 40_000);
const PER_TRANSACTION = 16;
const USERNAMES = process.argv[3] ?? 'consecutive';
if (USERNAMES !== 'consecutive' && USERNAMES !== 'random') throw new Error('usernames: consecutive or random');
const nameOf = (n: number) => (USERNAMES === 'random' ? `${randomBytes(5).toString('hex')}.u${n}` : `u${n}`);

const ROWID = `CREATE TABLE idem (id INTEGER PRIMARY KEY, scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT, status INT, headers TEXT, body TEXT, expires_at INT);
    CREATE UNIQUE INDEX idem_by_key ON idem (scope, key); CREATE INDEX idem_by_expiry ON idem (expires_at);`;
const LAYOUTS: Record<string, string> = {
  none: '',
  'without-rowid': `CREATE TABLE idem (scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT, status INT, headers TEXT, body TEXT, expires_at INT, PRIMARY KEY (scope, key)) WITHOUT ROWID;
    CREATE INDEX idem_by_expiry ON idem (expires_at);`,
  rowid: ROWID,
  'rowid-v7': ROWID,
  hash: `CREATE TABLE idem (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT, status INT, headers TEXT, body TEXT, expires_at INT);
    CREATE INDEX idem_by_hash ON idem (hash); CREATE INDEX idem_by_expiry ON idem (expires_at);`,
};

function measure(layout: string, dir: string): number {
  const db = new Database(join(dir, `${layout}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('temp_store = MEMORY');
  db.exec(`CREATE TABLE users (uid TEXT NOT NULL PRIMARY KEY, username TEXT, email_address TEXT, body TEXT);
    CREATE TABLE user_keys (key TEXT, value TEXT, uid TEXT, PRIMARY KEY (key, value)) WITHOUT ROWID;
    CREATE INDEX user_keys_by_uid ON user_keys (uid);
    CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT, subject TEXT, time TEXT, data TEXT);
    ${LAYOUTS[layout]}`);
  const insertUser = db.prepare('INSERT INTO users VALUES (?, ?, ?, ?)');
  const insertKey = db.prepare('INSERT INTO user_keys VALUES (?, ?, ?)');
  const insertEvent = db.prepare('INSERT INTO events (type, subject, time, data) VALUES (?, ?, ?, ?)');
  const columns = 'scope, key, fingerprint, status, headers, body, expires_at';
  const insertRecord =
    layout === 'none' ? undefined : db.prepare(layout === 'hash' ? `INSERT INTO idem (hash, ${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)` : `INSERT INTO idem (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const now = new Date().toISOString();
  const body = JSON.stringify({ uid: uuidv7(), username: 'idem.layout.12345', email_address: 'idem.layout.12345@bench.example', display_name: 'Bench User', legacy_ids: [], attributes: {}, created_at: now, updated_at: now, version: 1 });
  const headers = JSON.stringify({ etag: '"0123456789abcdefghijkl"', location: '/users/01900000-0000-7000-8000-000000000000' });
  const started = process.hrtime.bigint();
  for (let n = 0; n < CREATES; ) {
    db.transaction(() => {
      for (let i = 0; i < PER_TRANSACTION; i++, n++) {
        const uid = uuidv7();
        const name = nameOf(n);
        insertUser.run(uid, name, `${name}@bench.example`, body);
        insertKey.run('username', name, uid);
        insertKey.run('email_address', `${name}@bench.example`, uid);
        insertEvent.run('user.created', uid, now, body);
        if (!insertRecord) continue;
        const key = layout === 'rowid-v7' ? uuidv7() : randomUUID();
        const record = ['client', key, 'f'.repeat(43), 201, headers, body, Date.now() + 86_400_000];
        if (layout === 'hash') insertRecord.run(createHash('sha256').update(`client\u0000${key}`).digest().readBigInt64BE(0), ...record);
        else insertRecord.run(...record);
      }
    }).immediate();
  }
  db.close();
  return CREATES / (Number(process.hrtime.bigint() - started) / 1e9);
}

const dir = mkdtempSync(join(tmpdir(), 'idempotency-layouts-'));
try {
  console.log(`${CREATES} creates per layout, ${USERNAMES} usernames`);
  for (const layout of Object.keys(LAYOUTS)) console.log(`${layout.padEnd(14)} ${measure(layout, dir).toFixed(0).padStart(7)} creates/s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
