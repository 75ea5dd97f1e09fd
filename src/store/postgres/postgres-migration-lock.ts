/** An arbitrary constant naming this service's migration lock: migrations and the deferred indexes of a bulk load (postgres-bulk-load.ts) run under it. */
export const MIGRATION_LOCK_ID = 7_316_205_114;
