/**
 * `user-service backup`, `restore` and `verify` (docs/deployment.md, "Backups"): the
 * commands over the StoreBackup port. backup snapshots the configured SQLite store while
 * a service keeps serving it; on PostgreSQL it names the database's own tools and fails.
 * restore and verify work on files and need no setting. A refusal (a damaged snapshot, a
 * target that holds users, a disagreement verify finds) is exit 1 with the reason.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotName } from '../backup/snapshot-name.js';
import { fileBackup, markFeedRestored, storeBackupFor } from '../store/store-backup.js';
import { UsageError } from './arguments.js';
import { readNewerExport } from './newer-export-file.js';
import type { Command } from './command.js';
import { EXISTING_STORE_SETTINGS } from './settings.js';

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The uids of an --erase-from file: one per line; blank lines and lines starting with # are skipped. */
export function readEraseList(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--erase-from: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const uids = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const bad = uids.find((uid) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uid));
  if (bad !== undefined) throw new UsageError(`--erase-from: ${JSON.stringify(bad.slice(0, 80))} in ${file} is not a uid`);
  return uids.map((uid) => uid.toLowerCase());
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What restore says when no --erase-from was given: users deleted after the snapshot are back. */
export const eraseReminder = (feedPosition: number) =>
  `no --erase-from: a user deleted after the snapshot (above change-feed position ${feedPosition}) is in the restored file again: before serving it, name such users with --erase-from FILE or give an export made since with --erase-missing-from EXPORT (restoring again with --force) (docs/security.md, "Erasure and backups")`;

export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: {
    summary: 'write a consistent snapshot of the SQLite store, while a service may keep serving it, and its manifest',
    usage: 'user-service backup --to PATH|FOLDER [options]',
    options: { to: 'value' },
    optionsHelp: [
      '  --to PATH|FOLDER   the snapshot file to write (it must not exist), or a folder to write',
      '                     users-TIME.db in; the manifest is written beside it as PATH.manifest.json',
    ].join('\n'),
    // TEST_BACKUP_STEP_DELAY_MS is for crash tests; it is no documented setting (settings.ts).
    settings: [...EXISTING_STORE_SETTINGS, 'TEST_BACKUP_STEP_DELAY_MS'],
    async run({ options, positionals }, config) {
      if (positionals.length > 0) throw new UsageError(`backup takes no argument (got ${JSON.stringify(positionals[0])}); name the snapshot with --to`);
      if (typeof options.to !== 'string') throw new UsageError('backup needs --to PATH (a new file) or --to FOLDER');
      const target = isFolder(options.to) ? join(options.to, snapshotName()) : options.to;
      const { store, backupStepDelayMs } = config();
      const backup = await storeBackupFor(store, backupStepDelayMs);
      const since = performance.now();
      const manifest = await backup.snapshot(target);
      const seconds = ((performance.now() - since) / 1000).toFixed(1);
      process.stdout.write(`${target}\n`);
      process.stderr.write(
        `snapshot of ${plural(manifest.users, 'user')} at change-feed position ${manifest.feed_position}, schema ${manifest.schema_version}, ${manifest.bytes} bytes, sha256 ${manifest.sha256}, in ${seconds} s\n`,
      );
      return 0;
    },
  },
  restore: {
    summary: 'restore a snapshot into a SQLite file (checked first, migrated forward); the service must be stopped',
    usage: 'user-service restore SNAPSHOT --to PATH [--force] [--erase-from FILE] [--erase-missing-from EXPORT]',
    options: { to: 'value', force: 'flag', 'erase-from': 'value', 'erase-missing-from': 'value' },
    optionsHelp: [
      '  --to PATH           the store file to write (DATABASE_URL sqlite:PATH of the service)',
      '  --force             replace PATH even when it holds users (otherwise refused)',
      '  --erase-from FILE   delete these users after restoring: uids, one per line (users erased since the',
      '                      snapshot was made, so a restore does not bring them back: docs/security.md)',
      '  --erase-missing-from EXPORT',
      '                      delete the users of the snapshot that EXPORT lacks: a user-service export (JSON',
      '                      Lines) made after the snapshot; refused when EXPORT may be older than the snapshot',
    ].join('\n'),
    settings: [],
    async run({ options, positionals }) {
      if (positionals.length !== 1) throw new UsageError('restore takes one snapshot file: user-service restore SNAPSHOT --to PATH');
      if (typeof options.to !== 'string') throw new UsageError('restore needs --to PATH, the store file to write');
      const erase = typeof options['erase-from'] === 'string' ? readEraseList(options['erase-from']) : [];
      const exported = options['erase-missing-from'];
      const newerExport = typeof exported === 'string' ? await readNewerExport(exported) : undefined;
      const report = await (await fileBackup()).restore(positionals[0]!, options.to, { force: options.force === true, erase, ...(newerExport ? { newerExport } : {}) });
      const migrated = report.fromSchema === report.toSchema ? `schema ${report.toSchema}` : `schema ${report.fromSchema} migrated to ${report.toSchema}`;
      const named = erase.length > 0 ? `, ${plural(report.erased, 'user')} erased of ${erase.length} named` : '';
      const missing = newerExport ? `, ${plural(report.missingFromExport, 'user')} missing from ${exported} erased` : '';
      const erased = `${named}${missing}`;
      process.stdout.write(
        `restored ${plural(report.users, 'user')} to ${options.to} at change-feed position ${report.feedPosition} (${migrated}${erased}); new events follow position ${report.nextPosition}, and a consumer that read past ${report.feedPosition} is answered 410 and resyncs\n`,
      );
      // Never silently: a user erased since the snapshot is in the restored file again until named.
      if (options['erase-from'] === undefined && newerExport === undefined) process.stderr.write(`${eraseReminder(report.feedPosition)}\n`);
      return 0;
    },
  },
  'mark-restored': {
    summary: 'after pg_restore or a point-in-time recovery (or a SQLite file copied back): mark the change feed restored, before serving it',
    usage: 'user-service mark-restored [options]',
    options: {},
    settings: EXISTING_STORE_SETTINGS,
    async run({ positionals }, config) {
      if (positionals.length > 0) throw new UsageError('mark-restored takes no argument');
      const { restored, next } = await markFeedRestored(config().store);
      process.stdout.write(`the change feed continues after position ${restored}; new events follow position ${next}, and a consumer that read past ${restored} is answered 410 and resyncs\n`);
      return 0;
    },
  },
  verify: {
    summary: 'check a snapshot or a SQLite store file, reading only: integrity, counts, lookups, the feed, stored users',
    usage: 'user-service verify [PATH] [--sample N] [options]',
    options: { sample: 'value' },
    optionsHelp: [
      '  PATH         a snapshot (checked against its manifest too) or a store file; default: the DATABASE_URL store',
      '  --sample N   users rendered again and compared with what is stored (default 1000; 0 none)',
    ].join('\n'),
    settings: ['DATABASE_URL'],
    async run({ options, positionals }, config) {
      if (positionals.length > 1) throw new UsageError('verify takes one file');
      const sample = options.sample === undefined ? 1000 : Number(options.sample);
      if (!Number.isSafeInteger(sample) || sample < 0 || !/^[0-9]+$/.test(String(options.sample ?? '0'))) throw new UsageError('--sample must be a whole number');
      let path = positionals[0];
      if (path === undefined) {
        const store = config().store;
        if (store.kind !== 'sqlite' || store.path === ':memory:') throw new UsageError('verify checks SQLite files: name one, or set DATABASE_URL=sqlite:PATH');
        path = store.path;
      }
      const report = await (await fileBackup()).verify(path, { sample });
      if (report.problems.length > 0) {
        process.stderr.write(`${path}: ${plural(report.problems.length, 'problem')} found:\n${report.problems.map((p) => `  ${p}`).join('\n')}\n`);
        return 1;
      }
      process.stdout.write(
        `${path}: ok: ${plural(report.users, 'user')}, change-feed position ${report.feedPosition}, schema ${report.schemaVersion}, ${plural(report.sampled, 'user')} rendered again and equal\n`,
      );
      return 0;
    },
  },
};
