/**
 * Which users of a snapshot a newer export shows deleted (src/store/deleted-since-export.ts),
 * and the exports that may be older than the snapshot, refused before anything is erased.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deletedSince, type NewerExport } from '../../src/store/deleted-since-export.js';
import { BackupRefusedError } from '../../src/store/store-backup.js';

const A = '00000000-0000-7000-8000-00000000000a';
const B = '00000000-0000-7000-8000-00000000000b';
const C = '00000000-0000-7000-8000-00000000000c';
const at = (minute: number) => `2026-11-28T10:${String(minute).padStart(2, '0')}:00.000Z`;
const exported = (users: [string, number, string][]): NewerExport => ({
  file: 'newer.jsonl',
  versions: new Map(users.map(([uid, version]) => [uid, version])),
  newest: users.map(([, , updated]) => updated).sort().at(-1),
});

describe('the users a newer export shows deleted since a snapshot', () => {
  it('are the snapshot\'s users it lacks; users it holds at the same or a later version stay', () => {
    const snapshot = [{ uid: A, version: 1, updated_at: at(1), position: 1 }, { uid: B, version: 2, updated_at: at(2), position: 2 }, { uid: C, version: 1, updated_at: at(3), position: 3 }];
    // After the snapshot: A changed (version 2, at minute 9), B deleted, C unchanged, another user created.
    const newer = exported([[A, 2, at(9)], [C, 1, at(3)], ['00000000-0000-7000-8000-00000000000d', 1, at(8)]]);
    assert.deepEqual(deletedSince(snapshot, newer), [B]);
  });

  it('refuses an export holding a user at a lower version than the snapshot (it is older), naming both versions', () => {
    const snapshot = [{ uid: A, version: 3, updated_at: at(5), position: 3 }];
    assert.throws(() => deletedSince(snapshot, exported([[A, 2, at(4)]])), (error: Error) => error instanceof BackupRefusedError && /may be older than the snapshot: user .* version 3 in the snapshot and 2 in the export; nothing was changed/.test(error.message));
  });

  it('refuses to erase a user written at or after the newest write the export holds: the export may predate it', () => {
    // The export was made at minute 4; the snapshot at minute 6 holds C, created at minute 5.
    const snapshot = [{ uid: A, version: 1, updated_at: at(1), position: 1 }, { uid: C, version: 1, updated_at: at(5), position: 2 }];
    assert.throws(() => deletedSince(snapshot, exported([[A, 1, at(1)], [B, 1, at(4)]])), (error: Error) => error instanceof BackupRefusedError && error.message.includes(`user ${C}`) && /--erase-from/.test(error.message));
    // Written at the very time of the export's newest write: refused too (no erasure on a doubt).
    assert.throws(() => deletedSince([{ uid: C, version: 1, updated_at: at(4), position: 1 }], exported([[B, 1, at(4)]])), BackupRefusedError);
  });

  it('refuses an export of no user: it shows no deletion', () => {
    assert.throws(() => deletedSince([{ uid: A, version: 1, updated_at: at(1), position: 1 }], exported([])), /holds no user/);
    assert.deepEqual(deletedSince([], exported([])), [], 'an empty snapshot has nothing to erase');
  });

  it('refuses an export of another store: no user it holds shows it was made after the snapshot\'s writes', () => {
    const snapshot = [{ uid: A, version: 1, updated_at: at(1), position: 1 }, { uid: B, version: 1, updated_at: at(2), position: 2 }];
    assert.throws(() => deletedSince(snapshot, exported([['00000000-0000-7000-8000-00000000000d', 1, at(9)]])), (error: Error) => error instanceof BackupRefusedError && /nothing was changed/.test(error.message));
  });

  it('refuses an older export lacking a user written after it whose updated_at came with an import (earlier or later than the export)', () => {
    // The export was made after A's write (position 1); C was then imported (position 2) keeping the
    // updated_at of the system it came from: an earlier time, or one in the future held by another user.
    const imported = [{ uid: A, version: 1, updated_at: at(5), position: 1 }, { uid: C, version: 3, updated_at: '2024-06-01T00:00:00.000Z', position: 2 }];
    assert.throws(() => deletedSince(imported, exported([[A, 1, at(5)]])), (error: Error) => error instanceof BackupRefusedError && error.message.includes(`user ${C}`));
    const future = [{ uid: A, version: 1, updated_at: '2030-01-01T00:00:00.000Z', position: 1 }, { uid: C, version: 1, updated_at: at(6), position: 2 }];
    assert.throws(() => deletedSince(future, exported([[A, 1, '2030-01-01T00:00:00.000Z']])), (error: Error) => error instanceof BackupRefusedError && error.message.includes(`user ${C}`));
  });

  it('erases a user last written before a write the export holds at the snapshot\'s version', () => {
    const snapshot = [{ uid: A, version: 1, updated_at: at(2), position: 2 }, { uid: B, version: 1, updated_at: at(1), position: 1 }];
    assert.deepEqual(deletedSince(snapshot, exported([[A, 1, at(2)]])), [B]);
  });
});
