/**
 * `node dist/bench/ab-setup.js DIR [USERS]`: what bench/ab-services.sh needs, in DIR:
 * a SQLite file of USERS (default 20,000) seeded users (users.db), an API key with both
 * scopes (key.txt, and keys.json holding only its SHA-256, as the service reads it)
 * and 20,000 request paths of random seeded uids (paths.txt).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededUid } from './seed-data.js';
import { seedSqlite } from './seed-sqlite.js';

const [dir, users = '20000'] = process.argv.slice(2);
if (!dir) throw new Error('usage: node dist/bench/ab-setup.js DIR [USERS]');
const count = Number(users);
mkdirSync(dir, { recursive: true });
for (const file of ['users.db', 'users.db-wal', 'users.db-shm']) rmSync(join(dir, file), { force: true });
const seeded = seedSqlite(join(dir, 'users.db'), count);
const key = randomBytes(32).toString('base64url');
writeFileSync(join(dir, 'key.txt'), key);
writeFileSync(join(dir, 'keys.json'), JSON.stringify([{ id: 'ab', sha256: createHash('sha256').update(key).digest('hex'), scopes: ['users:read', 'users:write'] }]));
const paths = Array.from({ length: 20_000 }, () => `/users/${seededUid(Math.floor(Math.random() * count))}`);
writeFileSync(join(dir, 'paths.txt'), `${paths.join('\n')}\n`);
console.log(`${dir}: ${count.toLocaleString('en')} users seeded in ${seeded.seconds.toFixed(1)} s; key.txt, keys.json, paths.txt written`);
