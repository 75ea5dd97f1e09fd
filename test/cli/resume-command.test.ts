/** The command an interrupted import prints to resume it: pasteable as printed, and never a password. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { generatedRunKey, resumeCommand } from '../../src/cli/import-run.js';

describe('resumeCommand', () => {
  it('quotes each argument so a shell reads them back as given, and adds the key', () => {
    const argv = ['import', "it's here/users file.csv", '--map', 'First Name=given_name,Prénom=given_name', '--delimiter', ';'];
    const { command, note } = resumeCommand(argv, 'import-20261125T000000Z-0badf00d', false, false);
    assert.equal(note, undefined);
    assert.ok(command.startsWith('user-service import '));
    assert.ok(command.endsWith(' --idempotency-key import-20261125T000000Z-0badf00d'));
    // The shell splits the printed arguments into exactly the ones given.
    const echoed = spawnSync('sh', ['-c', `printf '%s\\n' ${command.slice('user-service '.length)}`], { encoding: 'utf8' });
    assert.deepEqual(echoed.stdout.trimEnd().split('\n'), [...argv, '--idempotency-key', 'import-20261125T000000Z-0badf00d']);
  });

  it('masks a database password and says so; says when DATABASE_URL came from the environment', () => {
    const masked = resumeCommand(['import', 'u.jsonl', '--database-url', 'postgres://svc:s3cr%40t@db:5432/users'], 'k', true, false);
    assert.equal(masked.command, "user-service import u.jsonl --database-url 'postgres://svc:***@db:5432/users'");
    assert.equal(masked.note, 'run it with the password where *** stands');
    assert.doesNotMatch(JSON.stringify(masked), /s3cr/);
    for (const spelling of ['--database-url=postgres://svc:s3cr@t@db:5432/users', 'postgresql://svc:s3cr@t@db/users']) {
      const other = resumeCommand(['import', 'u.jsonl', spelling], 'k', true, false);
      assert.doesNotMatch(other.command, /s3cr|@t@/, spelling);
      assert.match(other.command, /svc:\*\*\*@db/);
    }
    const fromEnvironment = resumeCommand(['import', 'u.jsonl'], 'k', true, true);
    assert.equal(fromEnvironment.note, 'run it with the same DATABASE_URL in the environment');
  });

  it('a generated key is a valid --idempotency-key and new on every run', () => {
    const key = generatedRunKey(new Date('2026-11-25T23:20:11.123Z'));
    assert.match(key, /^import-20261125T232011Z-[0-9a-f]{8}$/);
    assert.notEqual(generatedRunKey(), generatedRunKey());
  });
});
