/**
 * Keyset paging's promise: a page deep in the table costs what the first page
 * costs. This finds the URL of page `depth` (pages of `pageSize`) on a server by
 * walking `Link: rel="next"` in large steps (the service's cursor is signed, so
 * it cannot be made up; `limit` may change between pages), then both URLs are
 * measured like any scenario.
 */
import type autocannon from 'autocannon';

export interface DepthPaths {
  first: string;
  deep: string;
  /** The page number `deep` is (lower than asked when the table is shorter). */
  depth: number;
}

const STEP = 1000;

function nextLink(response: Response): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
}

function withLimit(path: string, limit: number): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set('limit', String(limit));
  return `${url.pathname}?${url.searchParams.toString()}`;
}

/** The paths of page 1 and page `depth` (or the last full page, if the table ends first). */
export async function depthPaths(baseUrl: string, headers: Record<string, string>, depth: number, pageSize: number, tableSize: number): Promise<DepthPaths> {
  const reachable = Math.max(1, Math.min(depth, Math.floor(tableSize / pageSize)));
  const skip = (reachable - 1) * pageSize;
  const first = `/users?limit=${pageSize}`;
  let skipped = 0;
  let path = `/users?limit=${Math.min(STEP, Math.max(1, skip))}`;
  while (skipped < skip) {
    const response = await fetch(baseUrl + path, { headers });
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    skipped += ((await response.json()) as unknown[]).length;
    const next = nextLink(response);
    if (next === undefined) throw new Error(`the table ended after ${skipped} users, before page ${reachable}`);
    path = withLimit(next, Math.min(STEP, Math.max(1, skip - skipped)));
  }
  return { first, deep: skip === 0 ? first : withLimit(path, pageSize), depth: reachable };
}

export function fixedRequest(path: string): autocannon.Request[] {
  return [{ method: 'GET', path }];
}
