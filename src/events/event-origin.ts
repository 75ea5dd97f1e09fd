/**
 * Who made a change and through which door (CONTRACT §11): stored with every
 * event and sent as CloudEvents extension attributes (`origininterface`,
 * `origincredential`, `originclient`), so a consumer that also writes users can
 * leave out its own changes (`exclude_origin`). Never a secret: the credential
 * is the API key's id from the keys file or the token's subject.
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../http/problems.js';

export const ORIGIN_INTERFACES = ['rest', 'scim', 'import'] as const;
export type OriginInterface = (typeof ORIGIN_INTERFACES)[number];

export interface EventOrigin {
  /** The door the write came through. */
  interface: OriginInterface;
  /** The credential's id (API key id, or the token's subject); absent without authentication or for an import. */
  credential?: string;
  /** The OAuth client the token was issued to (`azp` or `client_id`), when it names one. */
  client?: string;
}

/** The origin of an import's writes (the command line holds no credential). */
export const IMPORT_ORIGIN: EventOrigin = { interface: 'import' };

/** The origin of a write made by `request` through `via`. */
export function originOf(request: FastifyRequest, via: OriginInterface): EventOrigin {
  const credential = request.credential;
  if (credential === undefined) return { interface: via };
  return credential.client === undefined ? { interface: via, credential: credential.id } : { interface: via, credential: credential.id, client: credential.client };
}

/** The origin a store kept in three columns (NULL for events written before origins were kept: none). */
export function originFromColumns(via: string | null, credential: string | null, client: string | null): EventOrigin | undefined {
  if (via === null) return undefined;
  const origin: EventOrigin = { interface: via as OriginInterface };
  if (credential !== null) origin.credential = credential;
  if (client !== null) origin.client = client;
  return origin;
}

/** Which events a reader leaves out: those of one credential, or of one interface. */
export type OriginExclusion = { credential: string } | { interface: OriginInterface };

/** `exclude_origin`: `credential:<id>` or `interface:<rest|scim|import>`. Throws the 400 of anything else. */
export function parseOriginExclusion(value: string | undefined): OriginExclusion | undefined {
  if (value === undefined) return undefined;
  const colon = value.indexOf(':');
  const kind = colon === -1 ? '' : value.slice(0, colon);
  const name = value.slice(colon + 1);
  // No credential id holds a control character (\p{Cc}): such a value names no origin, so it is refused, not matched against nothing.
  if (kind === 'credential' && name !== '' && !/\p{Cc}/u.test(name)) return { credential: name };
  if (kind === 'interface' && (ORIGIN_INTERFACES as readonly string[]).includes(name)) return { interface: name as OriginInterface };
  throw new ProblemError('invalid-query', 'exclude_origin must be `credential:<id>` or `interface:rest`, `interface:scim` or `interface:import`.', {
    errors: [{ parameter: 'exclude_origin', detail: 'must be credential:<id> or interface:<rest|scim|import>' }],
  });
}

/** Whether an event of `origin` is left out by `exclusion` (an event without an origin, written before origins were kept, never is). */
export function isExcluded(origin: EventOrigin | undefined, exclusion: OriginExclusion | undefined): boolean {
  if (exclusion === undefined || origin === undefined) return false;
  return 'credential' in exclusion ? origin.credential === exclusion.credential : origin.interface === exclusion.interface;
}
