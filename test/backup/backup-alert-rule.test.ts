/**
 * The alert rule docs/deployment.md gives for scheduled snapshots ("Scheduled
 * snapshots"), as printed there: promtool checks it, and promtool's rule unit tests
 * show that it fires for an instance whose last success is older than two intervals
 * and leaves alone one that succeeds every interval and one that started less than two
 * intervals ago.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/child-server.js';
import { promtool, promtoolSkip } from '../helpers/promtool.js';

/** The YAML block of docs/deployment.md that holds the rule group. */
function documentedRules(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'deployment.md'), 'utf8');
  const block = /```yaml\n(groups:\n[\s\S]*?UserServiceBackupStale[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block !== undefined, 'docs/deployment.md holds the alert rule in a yaml block');
  return block;
}

/**
 * Instances scraped every minute, the interval one minute: `stale` has had no success
 * since its start at 0, `healthy` succeeds every minute, `restarted` started at 9 min
 * with no success yet. The rule's `for: 5m` makes `stale` fire from 8 min.
 */
const UNIT_TESTS = `rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - { series: 'user_service_backup_interval_seconds{instance="stale"}', values: '60x15' }
      - { series: 'user_service_backup_last_success_timestamp_seconds{instance="stale"}', values: '0x15' }
      - { series: 'process_start_time_seconds{instance="stale"}', values: '0x15' }
      - { series: 'user_service_backup_interval_seconds{instance="healthy"}', values: '60x15' }
      - { series: 'user_service_backup_last_success_timestamp_seconds{instance="healthy"}', values: '0+60x15' }
      - { series: 'process_start_time_seconds{instance="healthy"}', values: '0x15' }
      - { series: 'user_service_backup_interval_seconds{instance="restarted"}', values: '60x15' }
      - { series: 'user_service_backup_last_success_timestamp_seconds{instance="restarted"}', values: '0x15' }
      - { series: 'process_start_time_seconds{instance="restarted"}', values: '540x15' }
    alert_rule_test:
      - { eval_time: 5m, alertname: UserServiceBackupStale, exp_alerts: [] }
      - eval_time: 10m
        alertname: UserServiceBackupStale
        exp_alerts:
          - exp_labels: { alertname: UserServiceBackupStale, instance: stale }
            exp_annotations: { summary: 'no snapshot of the user store succeeded for two intervals (stale)' }
`;

describe('the documented alert rule for stale snapshots', promtoolSkip ? { skip: promtoolSkip } : {}, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'backup-alert-'));
    writeFileSync(join(dir, 'rules.yml'), documentedRules());
    writeFileSync(join(dir, 'tests.yml'), UNIT_TESTS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes promtool check rules', async () => {
    const result = await promtool(['check', 'rules', 'rules.yml'], dir);
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /SUCCESS: 1 rules found/);
  });

  it('fires for a stale instance only: not one that succeeds every interval, nor one that just started', async () => {
    const result = await promtool(['test', 'rules', 'tests.yml'], dir);
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  });
});
