/**
 * An import that does not reach the end of its file says what it committed and
 * how to go on: SIGTERM in the middle (the input is a pipe the test feeds, so
 * the signal lands between two known batches with no timing involved), then the
 * printed command resumes it; a report folder that cannot be written is found
 * before the first row; a report that fills its disk mid-run stops the run with
 * its summary. Real processes; the read-only and the full folder are tmpfs
 * mounts the test makes (the suite runs as root).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, it } from 'node:test';
import { REPO_ROOT } from '../helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt, type StoreKind, type TestDatabaseUrl } from '../helpers/stores.js';
import { storedUsers } from './stored-users.js';
import { userWords } from '../../src/users/search-words.js';
import { until } from '../helpers/until.js';
import { parseSummary } from './import-summary.js';
import { runCli, startCli } from './run-cli.js';

const line = (tag: string, i: number) => JSON.stringify({ username: `${tag}.${i}`, email_address: `${tag}.${i}@example.com` });

const countTagged = async (kind: StoreKind, url: string, tag: string) => (await storedUsers(kind, url, `${tag}.`)).length;

function mount(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  assert.equal(result.status, 0, `mount a tmpfs at ${dir} (the suite runs as root): ${result.stderr}`);
}

const unmount = (dir: string) => spawnSync('umount', [dir]);

describeEachStore('import: interruptions are honest', (kind) => {
  let dir: string;
  let db: TestDatabaseUrl;
  let bin: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'user-service-interrupt-'));
    db = await createTestDatabaseUrl(kind);
    // `user-service` on PATH, as an installed package provides it, so the printed command runs as printed.
    bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'user-service'), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js')}" "$@"\n`);
    chmodSync(join(bin, 'user-service'), 0o755);
  });
  after(async () => {
    await db.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM mid-import: the committed count and the resume command; the command as printed finishes the file, each user once', async (t) => {
    const tag = `sig${kind}`;
    const file = join(dir, 'pipe.jsonl');
    spawnSync('mkfifo', [file]);
    const { child, output, exited } = startCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10']);
    // Two whole batches and half of a third; the pipe stays open, so the import waits for more.
    const pipe = createWriteStream(file);
    pipe.write(`${Array.from({ length: 25 }, (_, i) => line(tag, i + 1)).join('\n')}\n`);
    await until(() => countTagged(kind, db.databaseUrl, tag), (n) => n === 20, t.signal);
    child.kill('SIGTERM');
    // Once the import says it is stopping, the pipe ends: the five records read since are not written.
    await until(async () => output().stderr, (text) => text.includes('SIGTERM: stopping after the batch being written'), t.signal);
    pipe.end();
    const { code } = await exited;
    const { stdout, stderr } = output();
    assert.equal(code, 143, stderr);
    assert.deepEqual({ ...parseSummary(stdout), report: undefined }, { created: 20, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 20, report: undefined });
    assert.match(stderr, /user-service: interrupted by SIGTERM: 20 users committed \(created 20, updated 0\); the records up to line 20 are committed or refused, nothing after it$/m);
    const resume = /user-service: resume with: (.+)/.exec(stderr)?.[1];
    assert.ok(resume, stderr);
    assert.match(resume, new RegExp(`^user-service import ${file} --database-url \\S+ --batch-size 10 --idempotency-key import-\\d{8}T\\d{6}Z-[0-9a-f]{8}$`));
    assert.match(stderr, new RegExp(`this run's key is import-\\S+; if it stops, resume with: ${resume.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'the key was printed before the first write');
    assert.equal(await countTagged(kind, db.databaseUrl, tag), 20);

    // The file in full where the pipe was: the resumed run replays the two committed batches and writes the rest.
    rmSync(file);
    writeFileSync(file, `${Array.from({ length: 40 }, (_, i) => line(tag, i + 1)).join('\n')}\n`);
    const resumed = spawnSync('sh', ['-c', resume], { env: { PATH: `${bin}:${process.env.PATH ?? ''}`, LOG_LEVEL: 'silent' }, encoding: 'utf8' });
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.deepEqual(parseSummary(resumed.stdout), { created: 40, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 40, replayed: 20 });
    assert.equal(await countTagged(kind, db.databaseUrl, tag), 40);
    // Into an empty directory, the import writes the words itself: every word of every user, from both runs, finds it.
    const store = await openTestStoreAt(kind, db.databaseUrl);
    try {
      for (const user of (await store.search({ filter: {}, limit: 100 })).value) {
        for (const word of userWords(user)) {
          const found = (await store.search({ filter: { words: [word] }, limit: 100 })).value;
          assert.ok(found.some((u) => u.uid === user.uid), `the word ${word} finds ${user.username}`);
        }
      }
    } finally {
      await store.close();
    }
  });

  it('the report never replaces the input, the database or a file that is not a report, whatever path names them', async () => {
    const tag = `guard${kind}`;
    const folder = join(dir, 'guard');
    mkdirSync(folder);
    const file = join(folder, 'in.jsonl');
    const content = `${line(tag, 1)}\n`;
    writeFileSync(file, content);
    symlinkSync('in.jsonl', join(folder, 'link.jsonl'));
    linkSync(file, join(folder, 'hard.jsonl'));
    writeFileSync(join(folder, 'notes.txt'), 'not a report\n');
    const cases: [string, RegExp][] = [
      [join(folder, 'link.jsonl'), /link\.jsonl: is a symbolic link: name the file itself/],
      [join(folder, 'hard.jsonl'), /hard\.jsonl: is the input file/],
      [join(folder, 'notes.txt'), /notes\.txt: exists and is not an import report: it is not overwritten/],
      [folder, /guard: is a folder/],
    ];
    if (kind === 'sqlite') {
      const database = db.databaseUrl.slice('sqlite:'.length);
      // The journal SQLite has not made yet is the database's all the same (SQLite would delete a report there).
      cases.push([database, /: is the database/], [`${database}-journal`, /-journal: is the database/]);
    }
    for (const [report, says] of cases) {
      const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--report', report]);
      assert.equal(result.code, 1, `${report}: ${result.stderr}`);
      assert.match(result.stderr, says);
      assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    }
    assert.equal(readFileSync(file, 'utf8'), content, 'the input is untouched');
    assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'not a report\n');
    assert.equal(await countTagged(kind, db.databaseUrl, tag), 0, 'nothing was imported');
    // An earlier report is replaced, as every run's report is its own.
    writeFileSync(join(folder, 'old.report.jsonl'), '{"line":9,"outcome":"skipped","reason":"x"}\n');
    const again = await runCli(['import', file, '--database-url', db.databaseUrl, '--report', join(folder, 'old.report.jsonl')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(existsSync(join(folder, 'old.report.jsonl')), false, 'nothing to report: the old report is gone');
  });

  it('a missing input leaves no report behind, and an earlier report where it would go is kept', async () => {
    const report = join(dir, 'kept.report.jsonl');
    writeFileSync(report, '{"line":1,"outcome":"skipped","reason":"x"}\n');
    const result = await runCli(['import', join(dir, 'missing.jsonl'), '--database-url', db.databaseUrl, '--report', report]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `user-service: ${join(dir, 'missing.jsonl')}: does not exist\n`);
    assert.equal(readFileSync(report, 'utf8'), '{"line":1,"outcome":"skipped","reason":"x"}\n');
    assert.equal(existsSync(join(dir, 'missing.jsonl.report.jsonl')), false);
  });

  it('a second SIGTERM ends the process at once, also while the input pipe is stalled, after the same summary', async (t) => {
    const file = join(dir, 'stalled.jsonl');
    spawnSync('mkfifo', [file]);
    const { child, output, exited } = startCli(['import', file, '--database-url', db.databaseUrl, '--report', join(dir, 'stalled.report.jsonl')]);
    // The pipe is open and gives nothing: the run waits for its first record whatever the machine's pace
    // (a record written here could arrive after the first signal and let the run stop by itself).
    const pipe = createWriteStream(file);
    await until(async () => existsSync(join(dir, 'stalled.report.jsonl')), (opened) => opened, t.signal);
    child.kill('SIGTERM');
    await until(async () => output().stderr, (text) => text.includes('SIGTERM: stopping after the batch being written'), t.signal);
    child.kill('SIGTERM');
    const { signal } = await exited;
    pipe.destroy();
    const { stdout, stderr } = output();
    assert.equal(signal, 'SIGTERM', stderr);
    assert.deepEqual({ ...parseSummary(stdout), report: undefined }, { created: 0, updated: 0, unchanged: 0, skipped: 0, rejected: 0, records: 0, report: undefined });
    assert.match(stderr, /stopped at once by a second SIGTERM; the batch being written may or may not have committed: 0 users committed/);
    assert.match(stderr, /resume with: user-service import /);
    assert.equal(existsSync(join(dir, 'stalled.report.jsonl')), false, 'the empty report is removed');
  });

  it('a report folder that cannot be written: found before the first row; without --report the report goes to the temporary folder, said once', async () => {
    const ro = join(dir, 'read-only');
    mount(ro, 'size=1m');
    try {
      const file = join(ro, 'users.jsonl');
      const tag = `ro${kind}`;
      // 30 users, then a bad line: the report is first written after users were committed.
      writeFileSync(file, `${Array.from({ length: 30 }, (_, i) => line(tag, i + 1)).join('\n')}\n{ not json\n`);
      assert.equal(spawnSync('mount', ['-o', 'remount,ro', ro]).status, 0);

      const refused = await runCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10', '--report', join(ro, 'report.jsonl')]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, `user-service: ${join(ro, 'report.jsonl')}: cannot be written (read-only file system)\n`);
      assert.equal(await countTagged(kind, db.databaseUrl, tag), 0, 'nothing was imported');

      const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10']);
      assert.equal(result.code, 1, result.stderr);
      const fallback = /it goes to (\S+) instead/.exec(result.stderr)?.[1];
      assert.ok(fallback !== undefined, result.stderr);
      assert.ok(fallback.startsWith(tmpdir()) && basename(fallback).startsWith('users.jsonl.import-'), fallback);
      assert.match(result.stderr, new RegExp(`the report ${file}\\.report\\.jsonl: cannot be written \\(read-only file system\\)`));
      const summary = parseSummary(result.stdout);
      assert.deepEqual({ ...summary, report: undefined }, { created: 30, updated: 0, unchanged: 0, skipped: 0, rejected: 1, records: 31, report: undefined });
      assert.equal(summary.report, fallback);
      assert.ok(existsSync(fallback));
      rmSync(fallback);
    } finally {
      unmount(ro);
    }
  });

  it('a report that fills its disk mid-run: the summary of what was committed, the error in words, the resume command', async () => {
    const full = join(dir, 'full');
    mount(full, 'size=8k');
    try {
      const tag = `full${kind}`;
      const file = join(dir, 'mostly-bad.jsonl');
      // Each batch of 10 holds 5 users and 5 lines the report must hold; 8 KiB of report lasts a few batches.
      writeFileSync(file, `${Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? line(tag, i + 1) : `{ bad line ${'x'.repeat(200)}`)).join('\n')}\n`);
      const result = await runCli(['import', file, '--database-url', db.databaseUrl, '--batch-size', '10', '--report', join(full, 'report.jsonl')]);
      assert.equal(result.code, 1);
      const summary = parseSummary(result.stdout);
      assert.ok(summary.created > 0 && summary.created < 200, result.stdout);
      assert.match(result.stderr, new RegExp(`user-service: stopped by an error: ${join(full, 'report.jsonl')}: cannot be written \\(out of space\\): ${summary.created} users committed`));
      assert.match(result.stderr, /user-service: resume with: user-service import \S+ .*--idempotency-key import-/);
      assert.equal(await countTagged(kind, db.databaseUrl, tag), summary.created, 'the summary counts every committed user');
      assert.deepEqual(readdirSync(full), ['report.jsonl']);
      // Whole lines only, and as many as the end says.
      const lines = readFileSync(join(full, 'report.jsonl'), 'utf8').split('\n');
      assert.equal(lines.pop(), '', 'the report ends with a whole line');
      const entries = lines.map((text) => JSON.parse(text) as { line: number });
      const through = /the report holds the refused and skipped lines up to line (\d+) only/.exec(result.stderr)?.[1];
      assert.ok(through !== undefined, result.stderr);
      assert.equal(entries.at(-1)?.line, Number(through), 'every tenth line is bad: the last complete batch ends with one');
    } finally {
      unmount(full);
    }
  });
});
