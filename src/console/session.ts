/**
 * The operator's credential. It lives in this module's memory and dies with the
 * tab; only when the operator asks is it kept in sessionStorage, which the
 * browser clears when the tab closes. It never goes into a URL, a cookie or
 * localStorage, and the page never logs it.
 */
import type { Api } from './api.js';

const STORAGE_KEY = 'user-service-console.credential';

export type Scope = 'users:read' | 'users:write' | 'metrics:read';

/** GET /credential: who the service says the operator is. */
export interface CredentialInfo {
  auth_mode: 'none' | 'api-key' | 'jwt';
  id?: string;
  scopes: Scope[];
  expires_at?: string;
}

export interface Session {
  info: CredentialInfo;
  can(scope: Scope): boolean;
}

let token: string | undefined;

export const currentToken = (): string | undefined => token;

/** A credential kept for this tab by an earlier sign-in, if the operator asked for that. */
export function keptToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Asks the service who `candidate` is; the credential is held only once the service accepted it. */
export async function signIn(api: Api, candidate: string | undefined, keep: boolean): Promise<Session> {
  const previous = token;
  token = candidate;
  try {
    const { body } = await api.request<CredentialInfo>('GET', '/credential');
    if (candidate !== undefined && keep) sessionStorage.setItem(STORAGE_KEY, candidate);
    const scopes = new Set(body.scopes);
    return { info: body, can: (scope) => scopes.has(scope) };
  } catch (error) {
    token = previous;
    throw error;
  }
}

export function signOut(): void {
  token = undefined;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: nothing was kept.
  }
}
