/**
 * Latency at one connection: requests sent one after the other over a single
 * keep-alive connection, each timed from the request's start to its body's end,
 * so the figure is what one client waits for one answer on an otherwise idle
 * service (no queueing behind other requests, unlike the rounds at 50 connections).
 * Percentiles are of the 200 responses; any other is counted apart.
 */
import { Agent, request } from 'node:http';
import { createHistogram } from 'node:perf_hooks';
import type { RunningServer } from './processes.js';

export interface OneConnectionResult {
  /** Measured requests answered 200 (fewer than asked when the time ran out). */
  requests: number;
  /** Responses that were not 200, by status (left out of the percentiles). */
  failures: Record<string, number>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Server CPU time per request, in µs. */
  cpuUsPerRequest: number;
}

/** One GET over `agent`: its status, headers and duration in ns. */
function get(agent: Agent, baseUrl: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; ns: bigint; body: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(`${baseUrl}${path}`, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, ns: process.hrtime.bigint() - started, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A single GET on a fresh connection: for checking what a path answers. */
export async function fetchOnce(server: RunningServer, path: string, headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: false });
  try {
    return await get(agent, server.baseUrl, path, headers);
  } finally {
    agent.destroy();
  }
}

/** Pause after a 503: the service sheds load while the event-loop delay of the last second is above its bound. */
const SHED_PAUSE_MS = 1100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Up to `warmup` unmeasured then up to `count` measured GETs, one at a time, each of the next
 * path of `paths` (cycling), for at most `maxSeconds` each: a shape whose requests take seconds
 * is measured on fewer. A 503 (load shed after a request held the event loop) is counted apart
 * and followed by a pause, so the next request is not shed for the same reason.
 */
export async function measureOneConnection(server: RunningServer, paths: readonly string[], headers: Record<string, string>, count: number, warmup: number, maxSeconds: number): Promise<OneConnectionResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const histogram = createHistogram();
  const failures: Record<string, number> = {};
  let max = 0;
  let measured = 0;
  const deadline = (seconds: number) => Date.now() + seconds * 1000;
  try {
    const warmupEnd = deadline(Math.min(5, maxSeconds));
    for (let i = 0; i < warmup && Date.now() < warmupEnd; i++) {
      if ((await get(agent, server.baseUrl, paths[i % paths.length] as string, headers)).status === 503) await sleep(SHED_PAUSE_MS);
    }
    const cpuBefore = server.cpuSeconds();
    let sent = 0;
    const end = deadline(maxSeconds);
    for (; sent < count && Date.now() < end; sent++) {
      const { status, ns } = await get(agent, server.baseUrl, paths[sent % paths.length] as string, headers);
      if (status !== 200) {
        failures[status] = (failures[status] ?? 0) + 1;
        if (status === 503) await sleep(SHED_PAUSE_MS);
        continue;
      }
      const us = Math.max(1, Number(ns / 1000n));
      histogram.record(us);
      max = Math.max(max, us);
      measured++;
    }
    const cpu = server.cpuSeconds() - cpuBefore;
    const ms = (p: number) => (measured === 0 ? 0 : histogram.percentile(p) / 1000);
    return { requests: measured, failures, p50: ms(50), p90: ms(90), p99: ms(99), max: max / 1000, cpuUsPerRequest: sent === 0 ? 0 : (cpu / sent) * 1e6 };
  } finally {
    agent.destroy();
  }
}
