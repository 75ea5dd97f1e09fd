/**
 * Reads the file of `restore --erase-missing-from EXPORT`: a `user-service export` in JSON
 * Lines (one user resource a line), made after the snapshot. Only what the decision needs
 * is kept of each user (store/deleted-since-export.ts): its uid, version and `updated_at`,
 * so a million users take a map of a million short entries, not their documents. A line
 * that is no user of an export refuses the file (usage error, exit 2) naming its line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { NewerExport } from '../store/deleted-since-export.js';
import { UsageError } from './arguments.js';

const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** As the service writes it (Date.toISOString): compared as text, so one form only. */
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export async function readNewerExport(file: string): Promise<NewerExport> {
  const versions = new Map<string, number>();
  let newest: string | undefined;

  /** Keeps what the decision needs of the user on line `line`, refusing a line that is no exported user. */
  function take(text: string, line: number): void {
    const refuse = (why: string) => new UsageError(`--erase-missing-from: line ${line} of ${file} ${why}: give the JSON Lines of user-service export`);
    let user: unknown;
    try {
      user = JSON.parse(text);
    } catch {
      throw refuse('is not JSON');
    }
    const { uid, version, updated_at: updatedAt } = (user ?? {}) as Record<string, unknown>;
    if (typeof uid !== 'string' || !UID.test(uid) || !Number.isSafeInteger(version) || (version as number) < 1 || typeof updatedAt !== 'string' || !TIME.test(updatedAt)) {
      throw refuse('is no exported user (a uid, a version and updated_at)');
    }
    if (versions.has(uid)) throw refuse(`repeats user ${uid}`);
    versions.set(uid, version as number);
    if (newest === undefined || updatedAt > newest) newest = updatedAt;
  }

  const input = createReadStream(file, { encoding: 'utf8' });
  let line = 0;
  try {
    // A missing file fails here; a folder opens, and fails at its first read (EISDIR).
    await new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
    for await (const read of createInterface({ input, crlfDelay: Infinity })) {
      line++;
      // A byte-order mark an editor put first is no part of the JSON.
      const text = line === 1 ? read.replace(/^\uFEFF/, '') : read;
      if (text.trim() === '') continue;
      take(text, line);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--erase-missing-from: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return { file, versions, newest };
}
