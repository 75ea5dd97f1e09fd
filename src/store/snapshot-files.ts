/**
 * The files of a SQLite snapshot: `NAME` (the database, one self-contained file in
 * rollback-journal mode) and `NAME.manifest.json`, written last. A snapshot is
 * complete exactly when its manifest exists; while it is being made it lives under
 * `.NAME.partial-PID` (and its manifest under `.NAME.manifest.partial-PID`), names no
 * reader takes for a snapshot, and a later run removes those of a process that is gone.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join } from 'node:path';
import { BackupRefusedError, type SnapshotManifest } from './store-backup.js';

export const MANIFEST_SUFFIX = '.manifest.json';
const MANIFEST_FORMAT = 'user-service-snapshot/1';
/** A partial file, or the journal SQLite kept beside one while it was open. */
const PARTIAL = /^\.(.+)\.partial-([0-9]+)(-wal|-shm|-journal)?$/;

export const manifestPath = (snapshot: string) => `${snapshot}${MANIFEST_SUFFIX}`;

/** The temporary name of `target` (or of its manifest) while this process makes it. */
export const partialPath = (target: string) => join(dirname(target), `.${basename(target)}.partial-${process.pid}`);

/** Flushes a file's content (or a folder's entries: a rename) to the disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 (hex) of a file, streamed: the event loop hashes one block at a time. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

/** Writes the manifest of a finished snapshot file under a temporary name, synced, then renames both into place. */
export function publishSnapshot(partial: string, target: string, manifest: SnapshotManifest): void {
  const partialManifest = partialPath(manifestPath(target));
  writeFileSync(partialManifest, `${JSON.stringify(manifest, null, 2)}\n`);
  fsyncPath(partialManifest);
  // The database first: its manifest appears only beside a complete file.
  renameSync(partial, target);
  renameSync(partialManifest, manifestPath(target));
  fsyncPath(dirname(target));
}

/** The manifest beside `snapshot`, checked for shape; a missing or unreadable one refuses the snapshot. */
export function readManifest(snapshot: string): SnapshotManifest {
  const path = manifestPath(snapshot);
  if (!existsSync(path)) throw new BackupRefusedError(`${snapshot} has no manifest (${basename(path)}): not a complete snapshot (an interrupted backup leaves none)`);
  let manifest: Partial<SnapshotManifest>;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<SnapshotManifest>;
  } catch {
    throw new BackupRefusedError(`the manifest ${path} is not valid JSON`);
  }
  const numbers = ['schema_version', 'users', 'feed_position', 'bytes'] as const;
  if (manifest.format !== MANIFEST_FORMAT || typeof manifest.sha256 !== 'string' || numbers.some((name) => !Number.isSafeInteger(manifest[name]))) {
    throw new BackupRefusedError(`the manifest ${path} is not a ${MANIFEST_FORMAT} manifest`);
  }
  return manifest as SnapshotManifest;
}

/** Refuses a snapshot whose file is not the one its manifest describes (truncated, changed, corrupted). */
export async function checkAgainstManifest(snapshot: string, manifest: SnapshotManifest): Promise<void> {
  if (!existsSync(snapshot)) throw new BackupRefusedError(`${snapshot} does not exist`);
  const sha256 = await sha256OfFile(snapshot);
  if (sha256 !== manifest.sha256) {
    throw new BackupRefusedError(`${snapshot} does not match its manifest (SHA-256 ${sha256.slice(0, 12)}…, expected ${manifest.sha256.slice(0, 12)}…): the file is damaged or was changed after the backup`);
  }
}

export function newManifest(fields: Omit<SnapshotManifest, 'format'>): SnapshotManifest {
  return { format: MANIFEST_FORMAT, ...fields };
}

/**
 * The partial files this process is making now (their names without a journal's suffix).
 * A partial of this process that is not among them is one a failed run could not remove
 * (a folder that refused the removal): the next run removes it, as those of a process gone.
 */
const making = new Set<string>();

/** Marks `partial` as being made by this process until the returned function is called. */
export function makingPartial(partial: string): () => void {
  const name = basename(partial);
  making.add(name);
  return () => making.delete(name);
}

/** Whether a process with this id runs (kill(pid, 0) fails with ESRCH when none does). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the partial files left in `folder` by runs of processes no longer running (a kill -9,
 * a crash) and by this process's runs that ended without removing them; returns their names.
 */
export function removeAbandonedPartials(folder: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    const match = PARTIAL.exec(name);
    if (match === null) continue;
    const pid = Number(match[2]);
    if (pid === process.pid ? making.has(name.slice(0, name.length - (match[3]?.length ?? 0))) : running(pid)) continue;
    rmSync(join(folder, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** The complete snapshots in `folder` whose names start with `prefix`, oldest first (names carry their time). */
export function completeSnapshots(folder: string, prefix: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith(MANIFEST_SUFFIX))
    .map((name) => name.slice(0, -MANIFEST_SUFFIX.length))
    .filter((name) => existsSync(join(folder, name)))
    .sort();
}

/** Removes a snapshot: its manifest first, so no half-removed snapshot looks complete. */
export function removeSnapshot(path: string): void {
  rmSync(manifestPath(path), { force: true });
  rmSync(path, { force: true });
}
