/** The users a database holds, read through the store as the service would: what the CLI tests check an import against. */
import { queryWords } from '../../src/users/search-words.js';
import { openTestStoreAt, type StoreKind } from '../helpers/stores.js';
import type { User } from '../../src/users/user.js';

/** Up to 10,000 users in uid order, or only those with a word starting each word of `prefix` (the store's `q`). */
export async function storedUsers(kind: StoreKind, url: string, prefix?: string): Promise<User[]> {
  const store = await openTestStoreAt(kind, url);
  try {
    return (await store.search({ filter: prefix === undefined ? {} : { words: queryWords(prefix) }, limit: 10_000 })).value;
  } finally {
    await store.close();
  }
}
