/**
 * The hosts of a DATABASE_URL as libpq writes a replicated cluster's
 * (`postgres://user@h1:5432,h2:5432/db?target_session_attrs=read-write`), each as
 * a URL of its own that names only that host, so a client of one connection
 * target can be made for each. WHATWG URL refuses a host list, so the authority
 * is split here; everything else (credentials, database, parameters) is kept as
 * written, but `target_session_attrs`, whose choice primary-follower.ts makes.
 */

/** `scheme://` + userinfo@ (optional) + the host list + the rest. */
const AUTHORITY = /^(postgres(?:ql)?:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/s;

export interface HostUrls {
  /** One URL per host, in the order written; a single-host URL gives one. */
  readonly urls: readonly string[];
  /** `host:port` of each, for logs and metrics (never credentials). */
  readonly names: readonly string[];
}

/** The URL with its host list cut to the first host: what a single-host parser (new URL()) can read. */
export function firstHostUrl(url: string): string {
  const match = AUTHORITY.exec(url);
  if (!match) return url;
  const [, scheme, userinfo, hosts, rest] = match as unknown as [string, string, string, string, string];
  return `${scheme}${userinfo}${hosts.split(',')[0]}${rest}`;
}

function withoutTargetSessionAttrs(rest: string): string {
  const q = rest.indexOf('?');
  if (q === -1) return rest;
  const params = rest
    .slice(q + 1)
    .split('&')
    .filter((param) => param !== '' && !/^target_session_attrs=/i.test(param));
  return params.length === 0 ? rest.slice(0, q) : `${rest.slice(0, q)}?${params.join('&')}`;
}

export function hostUrls(url: string): HostUrls {
  const match = AUTHORITY.exec(url);
  if (!match) return { urls: [url], names: [url] };
  const [, scheme, userinfo, hostList, rest] = match as unknown as [string, string, string, string, string];
  const hosts = hostList.split(',').filter((host) => host !== '');
  if (hosts.length <= 1) return { urls: [url], names: [hostList || 'localhost'] };
  const tail = withoutTargetSessionAttrs(rest);
  return {
    urls: hosts.map((host) => `${scheme}${userinfo}${host}${tail}`),
    names: hosts.map((host) => (/:\d+$/.test(host) ? host : `${host}:5432`)),
  };
}
