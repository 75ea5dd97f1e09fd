/** The package's public entry: the typed client, and the types of the HTTP API it is generated from. */
export { createUserClient, nextLink, UserServiceError } from './user-client.js';
export type { EventPage, FollowOptions, IdempotentWriteOptions, LookupKey, NewUser, Problem, SearchFilters, SearchPage, TaggedUser, User, UserClient, UserClientOptions, UserEvent, UserPatch, UserReplacement, WriteOptions } from './user-client.js';
export type { components, operations, paths } from './openapi-types.js';
