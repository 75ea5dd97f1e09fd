/**
 * What writing one access line costs, in CPU µs, through pino's default destination (SonicBoom,
 * asynchronous) and through the service's (src/observability/log-destination.ts: one write per
 * turn of the event loop). BENCH_LINES access lines (default 100,000), rendered by pino as the
 * service renders them (a child logger per request with its request id, then the line), are
 * written to a file in batches of BENCH_LINES_PER_TURN (default 20: what a turn answers under
 * wrk -c50) per turn; the process's CPU (all its threads) is divided by the lines. The two
 * destinations alternate over BENCH_ROUNDS rounds (default 5); each round's figures are printed,
 * then the medians. Also without any write (rendering only), to show what the line itself costs.
 *
 *   npm run bench:access-line
 */
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type DestinationStream } from 'pino';
import { turnBuffered } from '../src/observability/log-destination.js';
import { median } from './results.js';

const lines = Number(process.env.BENCH_LINES ?? 100_000);
const perTurn = Number(process.env.BENCH_LINES_PER_TURN ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const record = { method: 'GET', url: '/users/username:…', route: '/users/:ref', remoteAddress: '127.0.0.1' };

/** CPU µs per line of `lines` lines written through `stream`, `perTurn` per turn of the event loop. */
async function measure(stream: DestinationStream, finish: () => Promise<void> = async () => {}): Promise<number> {
  const root = pino({ level: 'info', serializers: { req: (r: unknown) => r } }, stream);
  const started = process.cpuUsage();
  let i = 0;
  await new Promise<void>((resolve) => {
    const turn = () => {
      for (let k = 0; k < perTurn && i < lines; k++, i++) {
        root.child({ reqId: `request-${i}` }).info({ req: record, res: { statusCode: 200 }, responseTime: 0.75 }, 'request completed');
      }
      if (i < lines) setImmediate(turn);
      else setImmediate(resolve);
    };
    turn();
  });
  // Every line written before the clock stops.
  await finish();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / lines;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-access-line-'));
const results: Record<string, number[]> = { 'none (rendering only)': [], "pino's default (SonicBoom)": [], 'one write per turn': [] };
try {
  for (let round = 0; round < rounds; round++) {
    const fds: number[] = [];
    const file = (name: string) => {
      const fd = openSync(join(dir, `${name}-${round}.log`), 'w');
      fds.push(fd);
      return fd;
    };
    results['none (rendering only)']!.push(await measure({ write: () => {} }));
    const sonic = pino.destination({ dest: file('sonic'), sync: false });
    results["pino's default (SonicBoom)"]!.push(await measure(sonic, () => new Promise<void>((resolve, reject) => sonic.flush((error) => (error ? reject(error) : resolve())))));
    const turn = turnBuffered(file('turn'));
    results['one write per turn']!.push(await measure(turn, async () => turn.flushSync()));
    console.log(`round ${round + 1}: ${Object.entries(results).map(([name, us]) => `${name} ${us.at(-1)!.toFixed(2)} µs`).join(', ')}`);
    for (const fd of fds) closeSync(fd);
  }
  console.log(`\n${lines.toLocaleString('en')} access lines, ${perTurn} per turn, median of ${rounds} rounds, CPU µs per line:`);
  for (const [name, us] of Object.entries(results)) console.log(`  ${name.padEnd(28)} ${median(us).toFixed(2)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
