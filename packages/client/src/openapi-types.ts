/**
 * Types of the service's HTTP API, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run `npm run generate:client-types`.
 */
/* eslint-disable */
export interface paths {
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Prometheus metrics (headers only) */
        head: operations["getMetricsHead"];
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process serves HTTP */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Liveness: the process serves HTTP (headers only) */
        head: operations["getLivenessHead"];
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the store answers and the instance is not shedding load */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Readiness: the store answers and the instance is not shedding load (headers only) */
        head: operations["getReadinessHead"];
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** This OpenAPI 3.1 document (headers only) */
        head: operations["getOpenApiDocumentHead"];
        patch?: never;
        trace?: never;
    };
    "/credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The credential this request carries: its id and scopes
         * @description For clients that adapt to what the caller may do. Any valid credential may read its own; the secret is never part of the answer.
         */
        get: operations["getCredential"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The credential this request carries: its id and scopes (headers only)
         * @description For clients that adapt to what the caller may do. Any valid credential may read its own; the secret is never part of the answer.
         */
        head: operations["getCredentialHead"];
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search users
         * @description Filters combine with AND. `q` finds people by any word of their names, username or email local part (docs/api.md, "Search"). Keyset pages in `sort` order (default uid); follow `Link: rel="next"` for the next page, which keeps the filters and the sort.
         */
        get: operations["searchUsers"];
        put?: never;
        /**
         * Create a user
         * @description The service assigns `uid`, `created_at`, `updated_at` and `version`. Every unique key must be free (else 409 naming it).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        /**
         * Search users (headers only)
         * @description Filters combine with AND. `q` finds people by any word of their names, username or email local part (docs/api.md, "Search"). Keyset pages in `sort` order (default uid); follow `Link: rel="next"` for the next page, which keeps the filters and the sort.
         */
        head: operations["searchUsersHead"];
        patch?: never;
        trace?: never;
    };
    "/users/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a user by uid, or look one up by a secondary key
         * @description `/users/{uid}` and `/users/{key}:{value}` answer alike: the same status, body, `ETag` and `Content-Location` (the canonical path).
         */
        get: operations["getUser"];
        /**
         * Replace a user
         * @description Full replacement of the writable fields: omitted optional fields reset to their defaults. Only on the canonical path (`PUT /users/{key}:{value}` is a 405).
         */
        put: operations["replaceUser"];
        post?: never;
        /**
         * Delete a user
         * @description Frees every key of the user for reuse and erases its personal data from the change feed and from stored Idempotency-Key answers, in the same transaction (docs/security.md, "Erasure"). Only on the canonical path (`DELETE /users/{key}:{value}` is a 405). Takes no body.
         */
        delete: operations["deleteUser"];
        options?: never;
        /**
         * Read a user by uid, or look one up by a secondary key (headers only)
         * @description `/users/{uid}` and `/users/{key}:{value}` answer alike: the same status, body, `ETag` and `Content-Location` (the canonical path).
         */
        head: operations["getUserHead"];
        /**
         * Change some fields of a user (JSON Merge Patch)
         * @description RFC 7396 merge patch, as `application/merge-patch+json` or `application/json` (read alike: the same merge patch): `null` removes an optional field or an attribute, objects merge, arrays are replaced whole. The patched user is validated as a PUT body; `{}` (or a patch changing nothing) keeps the version. Only on the canonical path (`PATCH /users/{key}:{value}` is a 405).
         */
        patch: operations["patchUser"];
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read or follow the change feed
         * @description Every committed write, in commit order, as CloudEvents. As JSON: a page of events after `after`, with `Link: rel="next"` to the next page (always sent: poll it). As Server-Sent Events (`Accept: text/event-stream`): live. A position older than retention keeps is a 410: resync from a listing.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Read or follow the change feed (headers only)
         * @description Every committed write, in commit order, as CloudEvents. As JSON: a page of events after `after`, with `Link: rel="next"` to the next page (always sent: poll it). As Server-Sent Events (`Accept: text/event-stream`): live. A position older than retention keeps is a 410: resync from a listing.
         */
        head: operations["listEventsHead"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        User: {
            /**
             * Format: uuid
             * @description Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.
             * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
             */
            uid: string;
            /**
             * Format: username
             * @description 1–64 Unicode letters, combining marks, digits and `. _ - @ +` (counted after NFC; at most 256 code points as sent). Unique case-insensitively (RFC 8265 UsernameCaseMapped).
             * @example alice
             */
            username: string;
            /**
             * Format: email-address
             * @description `local@domain`, at most 254 characters (local part at most 64, a dot-atom; a domain of at least two labels). Stored as given; unique case-insensitively over the whole address.
             * @example Alice.Liddell+news@Example.com
             */
            email_address: string;
            /** @description At most 100 identifiers from earlier systems; each belongs to at most one user. Default `[]`. */
            legacy_ids: string[];
            /**
             * @description The provisioning client's id for the user (SCIM `externalId`): unique across users and matched exactly, like a legacy id; null (the default) when none. Separate from `legacy_ids`: an identity provider owns it and may change it.
             * @example 00u1a2b3c4D5e6F7g8h9
             */
            external_id: string | null;
            /** @description false: deprovisioned. The user stays readable by uid and every key, keeps its keys and appears in search unless filtered by `active`. Default true. */
            active: boolean;
            /** @description At most 256 characters, or null. Default null. */
            display_name: string | null;
            name: {
                /** @description The full name as displayed. */
                formatted?: string;
                /** @description Family name (surname). */
                family_name?: string;
                /** @description Given name (first name). */
                given_name?: string;
                /** @description Middle name(s). */
                middle_name?: string;
                /** @description Title before the name, such as `Dr.`. */
                honorific_prefix?: string;
                /** @description Suffix after the name, such as `III`. */
                honorific_suffix?: string;
            } | null;
            /** @description Casual name. */
            nick_name: string | null;
            /** @description Job title. */
            title: string | null;
            /** @description Relationship to the organisation, such as `Employee` or `Contractor`. */
            user_type: string | null;
            /** @description A BCP 47 language tag (`en-US`). */
            preferred_language: string | null;
            /** @description A BCP 47 language tag for formatting (`en-US`). */
            locale: string | null;
            /** @description An IANA time zone name (`Europe/Paris`). */
            timezone: string | null;
            /** @description Every address of the user, at most 20. `email_address` is always among them, as the one `primary` entry (added first when missing); `primary` is derived, never taken from the input. */
            emails: {
                value: string;
                type?: string;
                primary: boolean;
            }[];
            phone_numbers: {
                value: string;
                type?: string;
                primary: boolean;
            }[];
            addresses: {
                /** @description The full address as displayed (lines separated by newlines). */
                formatted?: string;
                /** @description Street, number, apartment (lines separated by newlines). */
                street_address?: string;
                /** @description City or locality. */
                locality?: string;
                /** @description State or region. */
                region?: string;
                /** @description Postal code. */
                postal_code?: string;
                /** @description Country: ISO 3166-1 alpha-2 preferred. */
                country?: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary: boolean;
            }[];
            /** @description Employee number (enterprise extension). */
            employee_number: string | null;
            /** @description Cost centre (enterprise extension). */
            cost_center: string | null;
            /** @description Organisation (enterprise extension). */
            organization: string | null;
            /** @description Division (enterprise extension). */
            division: string | null;
            /** @description Department (enterprise extension). */
            department: string | null;
            manager: {
                /** @description The manager's id (SCIM `manager.value`): a uid when an IdP resolved it. */
                value: string;
                /** @description The manager's name as the writer gave it. */
                display_name?: string;
            } | null;
            /**
             * @description Free-form JSON object, at most 16 KiB serialised. Default `{}`.
             * @example {
             *       "department": "R&D"
             *     }
             */
            attributes: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC with milliseconds. Read-only.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC with milliseconds. Read-only.
             */
            updated_at: string;
            /** @description 1 on create, +1 on every accepted write. Read-only. */
            version: number;
        };
        UserEvent: {
            /** @constant */
            specversion: "1.0";
            /** @description The event's position, in decimal: compare as an integer. */
            id: string;
            /** @description EVENTS_SOURCE (default `/users`). */
            source: string;
            /**
             * Format: uuid
             * @description The uid of the user the event is about.
             * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
             */
            subject: string;
            /**
             * Format: date-time
             * @description When the write committed its change: the user's `updated_at` (`created_at` for a create, the deletion time for a delete).
             */
            time: string;
            /** @description The door the change came through (CloudEvents extension attribute). Absent on events written before origins were kept. */
            origininterface?: "rest" | "scim" | "import";
            /** @description The id of the credential that made the change: an API key's id, or a token's subject (never a secret). Absent without authentication and for imports. */
            origincredential?: string;
            /** @description The OAuth client the token that made the change was issued to (`azp` or `client_id`), when it is not the subject. */
            originclient?: string;
            /** @constant */
            datacontenttype: "application/json";
            type: "user.created" | "user.updated";
            data: components["schemas"]["User"] | {
                /**
                 * Format: uuid
                 * @description Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                uid: string;
                /** @description The version the event carried. */
                version: number;
                /** @constant */
                erased: true;
            };
        } | {
            /** @constant */
            specversion: "1.0";
            /** @description The event's position, in decimal: compare as an integer. */
            id: string;
            /** @description EVENTS_SOURCE (default `/users`). */
            source: string;
            /**
             * Format: uuid
             * @description The uid of the user the event is about.
             * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
             */
            subject: string;
            /**
             * Format: date-time
             * @description When the write committed its change: the user's `updated_at` (`created_at` for a create, the deletion time for a delete).
             */
            time: string;
            /** @description The door the change came through (CloudEvents extension attribute). Absent on events written before origins were kept. */
            origininterface?: "rest" | "scim" | "import";
            /** @description The id of the credential that made the change: an API key's id, or a token's subject (never a secret). Absent without authentication and for imports. */
            origincredential?: string;
            /** @description The OAuth client the token that made the change was issued to (`azp` or `client_id`), when it is not the subject. */
            originclient?: string;
            /** @constant */
            datacontenttype: "application/json";
            /** @constant */
            type: "user.deleted";
            data: {
                /**
                 * Format: uuid
                 * @description Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                uid: string;
                /** @description The version the user had when deleted. */
                version: number;
            };
        };
        /** @description RFC 9457 problem details. */
        Problem: {
            /**
             * @description One of the fixed problem types (README, Errors).
             * @enum {string}
             */
            type: "/problems/malformed-request" | "/problems/validation-failed" | "/problems/invalid-lookup-key" | "/problems/invalid-query" | "/problems/unauthorized" | "/problems/forbidden" | "/problems/not-found" | "/problems/method-not-allowed" | "/problems/events-gone" | "/problems/resource-erased" | "/problems/key-conflict" | "/problems/idempotency-key-in-use" | "/problems/precondition-failed" | "/problems/request-timeout" | "/problems/payload-too-large" | "/problems/uri-too-long" | "/problems/unsupported-media-type" | "/problems/expectation-failed" | "/problems/idempotency-key-reused" | "/problems/rate-limited" | "/problems/request-header-fields-too-large" | "/problems/internal-error" | "/problems/store-unavailable" | "/problems/overloaded" | "/problems/budget-exceeded" | "/problems/subscriber-limit" | "/problems/authentication-unavailable" | "/problems/store-full";
            title: string;
            /** @description The HTTP status, repeated. */
            status: number;
            detail: string;
            /** @description The request's path, without its query, as a reference on this service (percent-encoded where needed; never a host the request named): root-relative, or absolute under PUBLIC_URL when that is set. `/` when the request named no path of this service (`OPTIONS *`, `CONNECT`, a request line that could not be read). */
            instance: string;
            errors?: {
                /** @description JSON pointer into the body. */
                pointer?: string;
                /** @description Query or path parameter. */
                parameter?: string;
                detail: string;
            }[];
            /** @description On 409: the unique key that is taken. */
            key?: string;
        };
        /**
         * @description A new user. Unknown fields are rejected, never dropped.
         * @example {
         *       "username": "alice",
         *       "email_address": "Alice.Liddell+news@Example.com",
         *       "legacy_ids": [
         *         "A-1001",
         *         "crm:77"
         *       ],
         *       "display_name": "Alice Liddell",
         *       "attributes": {
         *         "department": "R&D"
         *       }
         *     }
         */
        UserCreate: {
            /**
             * Format: username
             * @description 1–64 Unicode letters, combining marks, digits and `. _ - @ +` (counted after NFC; at most 256 code points as sent). Unique case-insensitively (RFC 8265 UsernameCaseMapped).
             * @example alice
             */
            username: string;
            /**
             * Format: email-address
             * @description `local@domain`, at most 254 characters (local part at most 64, a dot-atom; a domain of at least two labels). Stored as given; unique case-insensitively over the whole address.
             * @example Alice.Liddell+news@Example.com
             */
            email_address: string;
            /** @description At most 100 identifiers from earlier systems; each belongs to at most one user. Default `[]`. */
            legacy_ids?: string[];
            /**
             * Format: legacy-id
             * @description Shorthand for `legacy_ids: [value]`; not together with `legacy_ids`.
             * @example crm:77
             */
            legacy_id?: string;
            /**
             * @description The provisioning client's id for the user (SCIM `externalId`): unique across users and matched exactly, like a legacy id; null (the default) when none. Separate from `legacy_ids`: an identity provider owns it and may change it.
             * @example 00u1a2b3c4D5e6F7g8h9
             */
            external_id?: string | null;
            /** @description false: deprovisioned. The user stays readable by uid and every key, keeps its keys and appears in search unless filtered by `active`. Default true. */
            active?: boolean;
            /** @description At most 256 characters, or null. Default null. */
            display_name?: string | null;
            /** @description Name parts; null (the default) for none. */
            name?: {
                /** @description The full name as displayed. */
                formatted?: string;
                /** @description Family name (surname). */
                family_name?: string;
                /** @description Given name (first name). */
                given_name?: string;
                /** @description Middle name(s). */
                middle_name?: string;
                /** @description Title before the name, such as `Dr.`. */
                honorific_prefix?: string;
                /** @description Suffix after the name, such as `III`. */
                honorific_suffix?: string;
            } | null;
            /** @description Casual name. */
            nick_name?: string | null;
            /** @description Job title. */
            title?: string | null;
            /** @description Relationship to the organisation, such as `Employee` or `Contractor`. */
            user_type?: string | null;
            /** @description A BCP 47 language tag (`en-US`). */
            preferred_language?: string | null;
            /** @description A BCP 47 language tag for formatting (`en-US`). */
            locale?: string | null;
            /** @description An IANA time zone name (`Europe/Paris`). */
            timezone?: string | null;
            /** @description Every address of the user, at most 20. `email_address` is always among them, as the one `primary` entry (added first when missing); `primary` is derived, never taken from the input. */
            emails?: {
                /** Format: email-address */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                /** @description Derived: true for the entry equal to `email_address`. May be sent back as read; it is recomputed. */
                primary?: boolean;
            }[];
            /** @description Phone numbers, at most 20; at most one `primary`. */
            phone_numbers?: {
                /** @description As given, preferably E.164 (`+15555550100`). */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[];
            /** @description Postal addresses, at most 20; at most one `primary`. */
            addresses?: {
                /** @description The full address as displayed (lines separated by newlines). */
                formatted?: string;
                /** @description Street, number, apartment (lines separated by newlines). */
                street_address?: string;
                /** @description City or locality. */
                locality?: string;
                /** @description State or region. */
                region?: string;
                /** @description Postal code. */
                postal_code?: string;
                /** @description Country: ISO 3166-1 alpha-2 preferred. */
                country?: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[];
            /** @description Employee number (enterprise extension). */
            employee_number?: string | null;
            /** @description Cost centre (enterprise extension). */
            cost_center?: string | null;
            /** @description Organisation (enterprise extension). */
            organization?: string | null;
            /** @description Division (enterprise extension). */
            division?: string | null;
            /** @description Department (enterprise extension). */
            department?: string | null;
            /** @description The manager; null (the default) for none. */
            manager?: {
                /** @description The manager's id (SCIM `manager.value`): a uid when an IdP resolved it. */
                value: string;
                /** @description The manager's name as the writer gave it. */
                display_name?: string;
            } | null;
            /**
             * @description Free-form JSON object, at most 16 KiB serialised. Default `{}`.
             * @example {
             *       "department": "R&D"
             *     }
             */
            attributes?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description The user as it should be. Omitted optional fields reset to their defaults. Read-only fields may be sent back as read: `uid` must equal the path's, the others are ignored.
         * @example {
         *       "username": "alice",
         *       "email_address": "alice@example.com",
         *       "legacy_id": "A-1001"
         *     }
         */
        UserReplacement: {
            /**
             * Format: username
             * @description 1–64 Unicode letters, combining marks, digits and `. _ - @ +` (counted after NFC; at most 256 code points as sent). Unique case-insensitively (RFC 8265 UsernameCaseMapped).
             * @example alice
             */
            username: string;
            /**
             * Format: email-address
             * @description `local@domain`, at most 254 characters (local part at most 64, a dot-atom; a domain of at least two labels). Stored as given; unique case-insensitively over the whole address.
             * @example Alice.Liddell+news@Example.com
             */
            email_address: string;
            /** @description At most 100 identifiers from earlier systems; each belongs to at most one user. Default `[]`. */
            legacy_ids?: string[];
            /**
             * Format: legacy-id
             * @description Shorthand for `legacy_ids: [value]`; not together with `legacy_ids`.
             * @example crm:77
             */
            legacy_id?: string;
            /**
             * @description The provisioning client's id for the user (SCIM `externalId`): unique across users and matched exactly, like a legacy id; null (the default) when none. Separate from `legacy_ids`: an identity provider owns it and may change it.
             * @example 00u1a2b3c4D5e6F7g8h9
             */
            external_id?: string | null;
            /** @description false: deprovisioned. The user stays readable by uid and every key, keeps its keys and appears in search unless filtered by `active`. Default true. */
            active?: boolean;
            /** @description At most 256 characters, or null. Default null. */
            display_name?: string | null;
            /** @description Name parts; null (the default) for none. */
            name?: {
                /** @description The full name as displayed. */
                formatted?: string;
                /** @description Family name (surname). */
                family_name?: string;
                /** @description Given name (first name). */
                given_name?: string;
                /** @description Middle name(s). */
                middle_name?: string;
                /** @description Title before the name, such as `Dr.`. */
                honorific_prefix?: string;
                /** @description Suffix after the name, such as `III`. */
                honorific_suffix?: string;
            } | null;
            /** @description Casual name. */
            nick_name?: string | null;
            /** @description Job title. */
            title?: string | null;
            /** @description Relationship to the organisation, such as `Employee` or `Contractor`. */
            user_type?: string | null;
            /** @description A BCP 47 language tag (`en-US`). */
            preferred_language?: string | null;
            /** @description A BCP 47 language tag for formatting (`en-US`). */
            locale?: string | null;
            /** @description An IANA time zone name (`Europe/Paris`). */
            timezone?: string | null;
            /** @description Every address of the user, at most 20. `email_address` is always among them, as the one `primary` entry (added first when missing); `primary` is derived, never taken from the input. */
            emails?: {
                /** Format: email-address */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                /** @description Derived: true for the entry equal to `email_address`. May be sent back as read; it is recomputed. */
                primary?: boolean;
            }[];
            /** @description Phone numbers, at most 20; at most one `primary`. */
            phone_numbers?: {
                /** @description As given, preferably E.164 (`+15555550100`). */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[];
            /** @description Postal addresses, at most 20; at most one `primary`. */
            addresses?: {
                /** @description The full address as displayed (lines separated by newlines). */
                formatted?: string;
                /** @description Street, number, apartment (lines separated by newlines). */
                street_address?: string;
                /** @description City or locality. */
                locality?: string;
                /** @description State or region. */
                region?: string;
                /** @description Postal code. */
                postal_code?: string;
                /** @description Country: ISO 3166-1 alpha-2 preferred. */
                country?: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[];
            /** @description Employee number (enterprise extension). */
            employee_number?: string | null;
            /** @description Cost centre (enterprise extension). */
            cost_center?: string | null;
            /** @description Organisation (enterprise extension). */
            organization?: string | null;
            /** @description Division (enterprise extension). */
            division?: string | null;
            /** @description Department (enterprise extension). */
            department?: string | null;
            /** @description The manager; null (the default) for none. */
            manager?: {
                /** @description The manager's id (SCIM `manager.value`): a uid when an IdP resolved it. */
                value: string;
                /** @description The manager's name as the writer gave it. */
                display_name?: string;
            } | null;
            /**
             * @description Free-form JSON object, at most 16 KiB serialised. Default `{}`.
             * @example {
             *       "department": "R&D"
             *     }
             */
            attributes?: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @description Canonical ID: a lower-case UUIDv7 assigned by the service. Read-only.
             * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
             */
            uid?: string;
            created_at?: string;
            updated_at?: string;
            version?: number;
        };
        /**
         * @description The members to change. `{}` changes nothing (the version stays).
         * @example {
         *       "display_name": "Alice L.",
         *       "attributes": {
         *         "department": null,
         *         "team": "Identity"
         *       }
         *     }
         */
        UserPatch: {
            /**
             * Format: username
             * @description 1–64 Unicode letters, combining marks, digits and `. _ - @ +` (counted after NFC; at most 256 code points as sent). Unique case-insensitively (RFC 8265 UsernameCaseMapped).
             * @example alice
             */
            username?: string;
            /**
             * Format: email-address
             * @description `local@domain`, at most 254 characters (local part at most 64, a dot-atom; a domain of at least two labels). Stored as given; unique case-insensitively over the whole address.
             * @example Alice.Liddell+news@Example.com
             */
            email_address?: string;
            /** @description Replaces the whole list; null empties it. */
            legacy_ids?: string[] | null;
            /**
             * @description The provisioning client's id for the user (SCIM `externalId`): unique across users and matched exactly, like a legacy id; null (the default) when none. Separate from `legacy_ids`: an identity provider owns it and may change it.
             * @example 00u1a2b3c4D5e6F7g8h9
             */
            external_id?: string | null;
            /** @description false: deprovisioned. The user stays readable by uid and every key, keeps its keys and appears in search unless filtered by `active`. Default true. */
            active?: boolean;
            /** @description At most 256 characters, or null. Default null. */
            display_name?: string | null;
            /** @description Merged member by member; a member set to null is removed; null removes the name. */
            name?: {
                /** @description The full name as displayed. */
                formatted?: string | null;
                /** @description Family name (surname). */
                family_name?: string | null;
                /** @description Given name (first name). */
                given_name?: string | null;
                /** @description Middle name(s). */
                middle_name?: string | null;
                /** @description Title before the name, such as `Dr.`. */
                honorific_prefix?: string | null;
                /** @description Suffix after the name, such as `III`. */
                honorific_suffix?: string | null;
            } | null;
            /** @description Casual name. */
            nick_name?: string | null;
            /** @description Job title. */
            title?: string | null;
            /** @description Relationship to the organisation, such as `Employee` or `Contractor`. */
            user_type?: string | null;
            /** @description A BCP 47 language tag (`en-US`). */
            preferred_language?: string | null;
            /** @description A BCP 47 language tag for formatting (`en-US`). */
            locale?: string | null;
            /** @description An IANA time zone name (`Europe/Paris`). */
            timezone?: string | null;
            /** @description Every address of the user, at most 20. `email_address` is always among them, as the one `primary` entry (added first when missing); `primary` is derived, never taken from the input. */
            emails?: {
                /** Format: email-address */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                /** @description Derived: true for the entry equal to `email_address`. May be sent back as read; it is recomputed. */
                primary?: boolean;
            }[] | null;
            /** @description Replaces the whole list; null empties it. */
            phone_numbers?: {
                /** @description As given, preferably E.164 (`+15555550100`). */
                value: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[] | null;
            /** @description Replaces the whole list; null empties it. */
            addresses?: {
                /** @description The full address as displayed (lines separated by newlines). */
                formatted?: string;
                /** @description Street, number, apartment (lines separated by newlines). */
                street_address?: string;
                /** @description City or locality. */
                locality?: string;
                /** @description State or region. */
                region?: string;
                /** @description Postal code. */
                postal_code?: string;
                /** @description Country: ISO 3166-1 alpha-2 preferred. */
                country?: string;
                /** @description A label such as `work`, `home`, `mobile` or `other`. */
                type?: string;
                primary?: boolean;
            }[] | null;
            /** @description Employee number (enterprise extension). */
            employee_number?: string | null;
            /** @description Cost centre (enterprise extension). */
            cost_center?: string | null;
            /** @description Organisation (enterprise extension). */
            organization?: string | null;
            /** @description Division (enterprise extension). */
            division?: string | null;
            /** @description Department (enterprise extension). */
            department?: string | null;
            /** @description Merged member by member; null removes the manager. */
            manager?: {
                /** @description The manager's id (SCIM `manager.value`): a uid when an IdP resolved it. */
                value?: string;
                /** @description The manager's name as the writer gave it. */
                display_name?: string | null;
            } | null;
            /** @description Merged into the attributes member by member (recursively); a member set to null is removed; null empties them. */
            attributes?: {
                [key: string]: unknown;
            } | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics in Prometheus text format. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMetricsHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics in Prometheus text format. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process serves HTTP. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getLivenessHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process serves HTTP. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The store answers. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadinessHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The store answers. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, for this configuration (its security follows AUTH_MODE). */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOpenApiDocumentHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, for this configuration (its security follows AUTH_MODE). */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential, as the service sees it. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description AUTH_MODE: with `none` nothing is checked and every scope is held. */
                        auth_mode: "none" | "api-key" | "jwt";
                        /** @description The API key's id, or the token's subject (absent with AUTH_MODE=none). */
                        id?: string;
                        /** @description The scopes this credential holds. */
                        scopes: ("users:read" | "users:write" | "metrics:read")[];
                        /** @description The OAuth client the token was issued to, when it is not the subject. */
                        client?: string;
                        /**
                         * Format: date-time
                         * @description When the token stops being valid (a JWT's `exp`).
                         */
                        expires_at?: string;
                    };
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCredentialHead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential, as the service sees it. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    searchUsers: {
        parameters: {
            query?: {
                /** @description Exact username, compared case-insensitively. */
                username?: string;
                /** @description Exact email address, compared case-insensitively. */
                email_address?: string;
                /** @description Exact legacy id (case-sensitive). */
                legacy_id?: string;
                /** @description Exact external id (case-sensitive). */
                external_id?: string;
                /** @description `true` or `false`: only active or only deactivated users. */
                active?: "true" | "false";
                /** @description Words, each the start of a word of the display name, the given or family name, the username or the email address's local part; case, accents and apostrophes are ignored (docs/api.md, "Search"). A username or email address equal to `q` comes first. At most 16 distinct words. */
                q?: string;
                /** @description Department equal to this, compared case-insensitively. */
                department?: string;
                /** @description Title equal to this, compared case-insensitively. */
                title?: string;
                /** @description Organization equal to this, compared case-insensitively. */
                organization?: string;
                /** @description Division equal to this, compared case-insensitively. */
                division?: string;
                /** @description Cost center equal to this, compared case-insensitively. */
                cost_center?: string;
                /** @description Employee number equal to this, compared case-insensitively. */
                employee_number?: string;
                /** @description User type equal to this, compared case-insensitively. */
                user_type?: string;
                /** @description Manager's id (`manager.value`) equal to this, compared case-insensitively. */
                manager?: string;
                /**
                 * @description Only users created at or after this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                created_after?: string;
                /**
                 * @description Only users created before this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                created_before?: string;
                /**
                 * @description Only users changed at or after this instant (delta syncs: pass the time of the previous sync).
                 * @example 2026-01-31T12:00:00Z
                 */
                updated_since?: string;
                /**
                 * @description Only users changed before this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                updated_before?: string;
                /** @description Up to three sort fields, comma-separated, `-` for descending: `username`, `display_name`, `family_name`, `given_name`, `created_at`, `updated_at`. Text compares folded (case and accents ignored), by code point; an absent name sorts as empty, first. Ties are broken by uid in the direction of the last field. Default: uid. */
                sort?: string;
                /** @description `true`: the `Total-Count` header gives how many users match: exact when the directory holds at most 10,000 users or an indexed condition names at most that many (docs/api.md, "Counting"), else an estimate marked `; estimate`. */
                count?: "true" | "false";
                /** @description Page size, 1–1000; default 100. Written in plain decimal: `007`, `+7`, `7.0` and `1e2` are refused. */
                limit?: number;
                /** @description Opaque; copy it from the `Link: rel="next"` URL. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of matching users (maybe empty), in the order of `sort`: exact username or email matches of `q` first. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 8288: `<…>; rel="next"` when more results follow (root-relative, or absolute under PUBLIC_URL when the service has one). */
                    Link?: string;
                    /** @description With `count=true`: how many users match, an RFC 8941 integer. Exact when the directory holds at most 10,000 users or an indexed condition (a word of `q`, a profile filter, a key, `active=false`, a time bound) names at most 10,000; otherwise estimated from a sample of 2,000 users and marked `; estimate` (`123000; estimate`). */
                    "Total-Count"?: string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the write safe to retry: a retry with the same key and the same request gets the first answer (and `Idempotent-Replayed: true`) without running again. A quoted string (`"8e03978e-…"`) or a bare token, 1–255 visible ASCII characters. Scoped to the credential; kept for IDEMPOTENCY_TTL_S (default 24 h).
                 * @example "8e03978e-40d5-43e8-bc93-6894a57f9324"
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Created; `Location` is its canonical path. */
            201: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The canonical URL of the created user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    Location: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A unique key is taken (see `key`), or a request with the same Idempotency-Key is still running; nothing was written */
            409: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description On the change feed: the events after this position were deleted by retention (or the position is ahead of the feed): resync from a listing. On an idempotent write: the Idempotency-Key's first request wrote a user that has since been deleted, and its stored answer was erased with it */
            410: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than the limit */
            413: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body not in an accepted media type, charset or content coding */
            415: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description `identity`: the service decodes no content coding (sent when Content-Encoding was the reason). */
                    "Accept-Encoding"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a different request */
            422: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The store is out of space (disk full or read-only): nothing was written, and a retry will not succeed until an operator frees space */
            507: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    searchUsersHead: {
        parameters: {
            query?: {
                /** @description Exact username, compared case-insensitively. */
                username?: string;
                /** @description Exact email address, compared case-insensitively. */
                email_address?: string;
                /** @description Exact legacy id (case-sensitive). */
                legacy_id?: string;
                /** @description Exact external id (case-sensitive). */
                external_id?: string;
                /** @description `true` or `false`: only active or only deactivated users. */
                active?: "true" | "false";
                /** @description Words, each the start of a word of the display name, the given or family name, the username or the email address's local part; case, accents and apostrophes are ignored (docs/api.md, "Search"). A username or email address equal to `q` comes first. At most 16 distinct words. */
                q?: string;
                /** @description Department equal to this, compared case-insensitively. */
                department?: string;
                /** @description Title equal to this, compared case-insensitively. */
                title?: string;
                /** @description Organization equal to this, compared case-insensitively. */
                organization?: string;
                /** @description Division equal to this, compared case-insensitively. */
                division?: string;
                /** @description Cost center equal to this, compared case-insensitively. */
                cost_center?: string;
                /** @description Employee number equal to this, compared case-insensitively. */
                employee_number?: string;
                /** @description User type equal to this, compared case-insensitively. */
                user_type?: string;
                /** @description Manager's id (`manager.value`) equal to this, compared case-insensitively. */
                manager?: string;
                /**
                 * @description Only users created at or after this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                created_after?: string;
                /**
                 * @description Only users created before this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                created_before?: string;
                /**
                 * @description Only users changed at or after this instant (delta syncs: pass the time of the previous sync).
                 * @example 2026-01-31T12:00:00Z
                 */
                updated_since?: string;
                /**
                 * @description Only users changed before this instant.
                 * @example 2026-01-31T12:00:00Z
                 */
                updated_before?: string;
                /** @description Up to three sort fields, comma-separated, `-` for descending: `username`, `display_name`, `family_name`, `given_name`, `created_at`, `updated_at`. Text compares folded (case and accents ignored), by code point; an absent name sorts as empty, first. Ties are broken by uid in the direction of the last field. Default: uid. */
                sort?: string;
                /** @description `true`: the `Total-Count` header gives how many users match: exact when the directory holds at most 10,000 users or an indexed condition names at most that many (docs/api.md, "Counting"), else an estimate marked `; estimate`. */
                count?: "true" | "false";
                /** @description Page size, 1–1000; default 100. Written in plain decimal: `007`, `+7`, `7.0` and `1e2` are refused. */
                limit?: number;
                /** @description Opaque; copy it from the `Link: rel="next"` URL. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of matching users (maybe empty), in the order of `sort`: exact username or email matches of `q` first. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 8288: `<…>; rel="next"` when more results follow (root-relative, or absolute under PUBLIC_URL when the service has one). */
                    Link?: string;
                    /** @description With `count=true`: how many users match, an RFC 8941 integer. Exact when the directory holds at most 10,000 users or an indexed condition (a word of `q`, a profile filter, a key, `active=false`, a time bound) names at most 10,000; otherwise estimated from a sample of 2,000 users and marked `; estimate` (`123000; estimate`). */
                    "Total-Count"?: string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Answer 304 (no body) if the user is still at one of these entity tags, or exists (`*`). Weak comparison: `W/"…"` matches the same tag. Members that are not entity tags never match. */
                "if-none-match"?: string;
            };
            path: {
                /** @description A uid, or `{key}:{value}` with key one of `uid`, `username`, `email_address`, `legacy_id`. The segment is percent-decoded once and split at its first colon; percent-encode `/` as `%2F`, `%` as `%25`, `?` as `%3F`, `#` as `%23`. A `+` is a literal plus. At most 2048 characters after decoding (else 414). */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Not modified: a tag in If-None-Match is current (or it is `*`). No body: the client keeps its copy. Generated clients type a 304 as neither data nor error, so check the status. */
            304: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such user, or no such resource */
            404: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A path segment longer than 2048 characters */
            414: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replace only if the user is still at one of these entity tags, or exists (`*`); else 412 and nothing is written. Strong comparison: a `W/"…"` tag never matches. Evaluated before If-None-Match. */
                "if-match"?: string;
                /** @description Replace only if the user is at none of these entity tags (weak comparison: `W/"…"` matches the same tag); else 412 and nothing is written. `*` matches any existing user, so it is always a 412 here (a missing user is a 404: writes never create). A value that is not `*` or a list of quoted entity tags is a 400. */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The uid of the user. Only the canonical path takes this method: `/users/{key}:{value}` (also `uid:…`) answers 405 with `Allow: GET, HEAD`. An unknown or malformed uid is a 404.
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserReplacement"];
            };
        };
        responses: {
            /** @description The replaced user. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such user, or no such resource */
            404: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Method not defined on this path (see Allow) */
            405: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The methods this path defines. */
                    Allow: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A unique key is taken (see `key`), or a request with the same Idempotency-Key is still running; nothing was written */
            409: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match did not match, or If-None-Match did; nothing was written */
            412: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than the limit */
            413: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A path segment longer than 2048 characters */
            414: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body not in an accepted media type, charset or content coding */
            415: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description `identity`: the service decodes no content coding (sent when Content-Encoding was the reason). */
                    "Accept-Encoding"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The store is out of space (disk full or read-only): nothing was written, and a retry will not succeed until an operator frees space */
            507: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Delete only if the user is still at one of these entity tags, or exists (`*`); else 412 and nothing is written. Strong comparison: a `W/"…"` tag never matches. Evaluated before If-None-Match. */
                "if-match"?: string;
                /** @description Delete only if the user is at none of these entity tags (weak comparison: `W/"…"` matches the same tag); else 412 and nothing is written. `*` matches any existing user, so it is always a 412 here (a missing user is a 404: writes never create). A value that is not `*` or a list of quoted entity tags is a 400. */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The uid of the user. Only the canonical path takes this method: `/users/{key}:{value}` (also `uid:…`) answers 405 with `Allow: GET, HEAD`. An unknown or malformed uid is a 404.
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such user, or no such resource */
            404: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Method not defined on this path (see Allow) */
            405: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The methods this path defines. */
                    Allow: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match did not match, or If-None-Match did; nothing was written */
            412: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than the limit */
            413: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A path segment longer than 2048 characters */
            414: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body not in an accepted media type, charset or content coding */
            415: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description `identity`: the service decodes no content coding (sent when Content-Encoding was the reason). */
                    "Accept-Encoding"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The store is out of space (disk full or read-only): nothing was written, and a retry will not succeed until an operator frees space */
            507: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUserHead: {
        parameters: {
            query?: never;
            header?: {
                /** @description Answer 304 (no body) if the user is still at one of these entity tags, or exists (`*`). Weak comparison: `W/"…"` matches the same tag. Members that are not entity tags never match. */
                "if-none-match"?: string;
            };
            path: {
                /** @description A uid, or `{key}:{value}` with key one of `uid`, `username`, `email_address`, `legacy_id`. The segment is percent-decoded once and split at its first colon; percent-encode `/` as `%2F`, `%` as `%25`, `?` as `%3F`, `#` as `%23`. A `+` is a literal plus. At most 2048 characters after decoding (else 414). */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified: a tag in If-None-Match is current (or it is `*`). No body: the client keeps its copy. Generated clients type a 304 as neither data nor error, so check the status. */
            304: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such user, or no such resource */
            404: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A path segment longer than 2048 characters */
            414: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    patchUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Patch only if the user is still at one of these entity tags, or exists (`*`); else 412 and nothing is written. Strong comparison: a `W/"…"` tag never matches. Evaluated before If-None-Match. */
                "if-match"?: string;
                /** @description Patch only if the user is at none of these entity tags (weak comparison: `W/"…"` matches the same tag); else 412 and nothing is written. `*` matches any existing user, so it is always a 412 here (a missing user is a 404: writes never create). A value that is not `*` or a list of quoted entity tags is a 400. */
                "if-none-match"?: string;
                /**
                 * @description Makes the write safe to retry: a retry with the same key and the same request gets the first answer (and `Idempotent-Replayed: true`) without running again. A quoted string (`"8e03978e-…"`) or a bare token, 1–255 visible ASCII characters. Scoped to the credential; kept for IDEMPOTENCY_TTL_S (default 24 h).
                 * @example "8e03978e-40d5-43e8-bc93-6894a57f9324"
                 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description The uid of the user. Only the canonical path takes this method: `/users/{key}:{value}` (also `uid:…`) answers 405 with `Allow: GET, HEAD`. An unknown or malformed uid is a 404.
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["UserPatch"];
                "application/json": components["schemas"]["UserPatch"];
            };
        };
        responses: {
            /** @description The patched user (unchanged, with the same version, when the patch changes nothing). */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description Strong entity tag of the user's current version; send it back in If-Match or If-None-Match. */
                    ETag: string;
                    /** @description The canonical URL of the user: /users/{uid}, absolute under PUBLIC_URL when the service has one. */
                    "Content-Location": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such user, or no such resource */
            404: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Method not defined on this path (see Allow) */
            405: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The methods this path defines. */
                    Allow: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A unique key is taken (see `key`), or a request with the same Idempotency-Key is still running; nothing was written */
            409: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description On the change feed: the events after this position were deleted by retention (or the position is ahead of the feed): resync from a listing. On an idempotent write: the Idempotency-Key's first request wrote a user that has since been deleted, and its stored answer was erased with it */
            410: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match did not match, or If-None-Match did; nothing was written */
            412: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than the limit */
            413: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A path segment longer than 2048 characters */
            414: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body not in an accepted media type, charset or content coding */
            415: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description `identity`: the service decodes no content coding (sent when Content-Encoding was the reason). */
                    "Accept-Encoding"?: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    /** @description RFC 5789: the media types PATCH takes, `application/merge-patch+json, application/json` (both an RFC 7396 merge patch). */
                    "Accept-Patch": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a different request */
            422: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The store is out of space (disk full or read-only): nothing was written, and a retry will not succeed until an operator frees space */
            507: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Answer the events after this position (default 0: from the oldest kept). Take it from a read of users (`Feed-Position`), the last event you applied, or the `Link: rel="next"` URL. Plain decimal. `Last-Event-ID` overrides it on a stream. */
                after?: number;
                /** @description Most events in the JSON answer, 1–1000; default 100. Plain decimal. Not used by a stream. */
                limit?: number;
                /**
                 * @description Only the events of the user with this uid (its history: created, every change, deleted; erased data once deleted). JSON pages only: a stream refuses it. `Link: rel="next"` starts after the last event of the page, or at `Feed-Position` when the page is not full (no more of its events up to there).
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                subject?: string;
                /** @description Leave out the events of one origin: `credential:<id>` (a credential's id: an API key's id, or a token's subject) or `interface:rest`, `interface:scim` or `interface:import`. A consumer that also writes users leaves out its own writes with its own credential's id. Events written before origins were kept are never left out. Paging is unchanged: `Link: rel="next"` starts after the last event read, left out or not. */
                exclude_origin?: string;
            };
            header?: {
                /**
                 * @description On a stream: the id of the last event applied; overrides `after`. Plain decimal.
                 * @example 1042
                 */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events after the position, in position order (maybe none). With `Accept: text/event-stream`: Server-Sent Events, live, until the client leaves. Each event is `id: <position>` and `data: <the CloudEvent as one JSON line>`; a comment line (`: heartbeat`) comes every EVENTS_HEARTBEAT_S when idle. Reconnect with `Last-Event-ID: <last id applied>` to resume right after it. A subscriber that falls more than EVENTS_SUBSCRIBER_BUFFER_BYTES behind is disconnected; it reconnects and resumes. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 8288: `<…>; rel="next"` when more results follow (root-relative, or absolute under PUBLIC_URL when the service has one). */
                    Link?: string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description `Accept`: the answer depends on it (a JSON page or an event stream). */
                    Vary: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserEvent"][];
                    "text/event-stream": string;
                };
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description On the change feed: the events after this position were deleted by retention (or the position is ahead of the feed): resync from a listing. On an idempotent write: the Idempotency-Key's first request wrote a user that has since been deleted, and its stored answer was erased with it */
            410: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEventsHead: {
        parameters: {
            query?: {
                /** @description Answer the events after this position (default 0: from the oldest kept). Take it from a read of users (`Feed-Position`), the last event you applied, or the `Link: rel="next"` URL. Plain decimal. `Last-Event-ID` overrides it on a stream. */
                after?: number;
                /** @description Most events in the JSON answer, 1–1000; default 100. Plain decimal. Not used by a stream. */
                limit?: number;
                /**
                 * @description Only the events of the user with this uid (its history: created, every change, deleted; erased data once deleted). JSON pages only: a stream refuses it. `Link: rel="next"` starts after the last event of the page, or at `Feed-Position` when the page is not full (no more of its events up to there).
                 * @example 01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f
                 */
                subject?: string;
                /** @description Leave out the events of one origin: `credential:<id>` (a credential's id: an API key's id, or a token's subject) or `interface:rest`, `interface:scim` or `interface:import`. A consumer that also writes users leaves out its own writes with its own credential's id. Events written before origins were kept are never left out. Paging is unchanged: `Link: rel="next"` starts after the last event read, left out or not. */
                exclude_origin?: string;
            };
            header?: {
                /**
                 * @description On a stream: the id of the last event applied; overrides `after`. Plain decimal.
                 * @example 1042
                 */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events after the position, in position order (maybe none). With `Accept: text/event-stream`: Server-Sent Events, live, until the client leaves. Each event is `id: <position>` and `data: <the CloudEvent as one JSON line>`; a comment line (`: heartbeat`) comes every EVENTS_HEARTBEAT_S when idle. Reconnect with `Last-Event-ID: <last id applied>` to resume right after it. A subscriber that falls more than EVENTS_SUBSCRIBER_BUFFER_BYTES behind is disconnected; it reconnects and resumes. */
            200: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 8288: `<…>; rel="next"` when more results follow (root-relative, or absolute under PUBLIC_URL when the service has one). */
                    Link?: string;
                    /** @description The change-feed position this answer reflects: every event at or below it is in it (later ones may be too). To mirror, list, then follow GET /events?after= the position of your first read, applying events by version. */
                    "Feed-Position": string;
                    /** @description `Accept`: the answer depends on it (a JSON page or an event stream). */
                    Vary: string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request (JSON, UTF-8, percent-encoding, headers), invalid body, lookup key or query */
            400: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credentials (when authentication is on) */
            401: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials lack the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description RFC 6750 Bearer challenge, with `error` and `scope` when a token was sent. */
                    "WWW-Authenticate": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request was not received in time */
            408: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description On the change feed: the events after this position were deleted by retention (or the position is ahead of the feed): resync from a listing. On an idempotent write: the Idempotency-Key's first request wrote a user that has since been deleted, and its stored answer was erased with it */
            410: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Expect other than 100-continue */
            417: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client's rate limit is spent (when rate limits are on) */
            429: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request line and headers larger than the limit */
            431: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure; the detail quotes the request id, nothing internal */
            500: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Store unreachable, instance overloaded or stopping, signing keys unavailable, or (on an event stream) as many streams as the instance serves (see Retry-After) */
            503: {
                headers: {
                    /** @description The request's id: the caller's own when it is 1–128 letters, digits, `-` and `_`, else a new one. Logs carry it. */
                    "X-Request-Id": string;
                    /** @description `no-cache` on representations (revalidate with If-None-Match), `no-store` on errors. */
                    "Cache-Control": string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": string;
                    /** @description The client's request budget per window (when rate limits are on). */
                    "x-ratelimit-limit"?: string;
                    /** @description Requests left in the window (when rate limits are on). */
                    "x-ratelimit-remaining"?: string;
                    /** @description Seconds until the window resets (when rate limits are on). */
                    "x-ratelimit-reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
