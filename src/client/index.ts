/** The package's public entry: the typed client. */
export { createUserClient, nextLink, UserServiceError } from './user-client.js';
export type { LookupKey, NewUser, Problem, SearchFilters, TaggedUser, User, UserClient, UserClientOptions, UserReplacement, WriteOptions } from './user-client.js';
