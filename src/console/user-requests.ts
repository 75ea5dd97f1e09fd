/** Reading a user with its entity tag, and patching it only if it is still at that tag. */
import type { Api } from './api.js';
import type { User } from './user-names.js';

export interface Tagged {
  user: User;
  etag: string;
}

const MERGE_PATCH = 'application/merge-patch+json';

export async function readUser(api: Api, uid: string): Promise<Tagged> {
  const { body, headers } = await api.request<User>('GET', `/users/${uid}`);
  return { user: body, etag: headers.get('etag') ?? '' };
}

/** PATCH with If-Match (RFC 9110 §13.1.1): the service refuses it with 412 if the user changed since `etag`. */
export async function patchUser(api: Api, current: Tagged, patch: Record<string, unknown>): Promise<Tagged> {
  const { body, headers } = await api.request<User>('PATCH', `/users/${current.user.uid}`, { body: patch, contentType: MERGE_PATCH, headers: { 'if-match': current.etag } });
  return { user: body, etag: headers.get('etag') ?? '' };
}
