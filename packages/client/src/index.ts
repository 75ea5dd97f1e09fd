/** The package's public entry: the typed client, its errors, and the types of the HTTP API it is generated from. */
export { createUserClient } from './user-client.js';
export type { EventPage, FollowOptions, IdempotentWriteOptions, LookupKey, NewUser, RefreshedUser, SearchFilters, SearchPage, TaggedUser, User, UserClient, UserClientOptions, UserEvent, UserPatch, UserReplacement, WriteOptions } from './user-client.js';
export { UserServiceError, type Problem } from './problem.js';
export { nextLink } from './link-header.js';
export type { components, operations, paths } from './openapi-types.js';
