/** Reads the summary line `user-service import` ends with, and checks that its counts add up. */
import assert from 'node:assert/strict';
import type { ImportSummary } from '../../src/cli/import-command.js';

/** The counts of the line, and the report file it names (undefined for "nothing to report"); `replayed` only when the line names it. */
export type ParsedSummary = Omit<ImportSummary, 'stoppedAt' | 'replayed' | 'lastLine' | 'cleared' | 'interrupted'> & { replayed?: number };

const LINE = /^created (\d+), updated (\d+), unchanged (\d+), skipped (\d+), rejected (\d+) \((\d+) records? in [\d.]+ s, \d+\/s\)(?:; (\d+) of them as recorded by an earlier run with this --idempotency-key)?(?:; stopped at line \d+ \(--on-conflict fail\))?; (?:refused and skipped lines: (.+)|nothing to report)$/m;

/** The summary of `stdout`; asserts that created + updated + unchanged + skipped + rejected = records. */
export function parseSummary(stdout: string): ParsedSummary {
  const match = LINE.exec(stdout);
  assert.ok(match, `no summary line in: ${stdout}`);
  const [created, updated, unchanged, skipped, rejected, records] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  assert.equal(created + updated + unchanged + skipped + rejected, records, `the counts do not add up: ${match[0]}`);
  return { created, updated, unchanged, skipped, rejected, records, ...(match[7] !== undefined ? { replayed: Number(match[7]) } : {}), ...(match[8] !== undefined ? { report: match[8] } : {}) };
}
