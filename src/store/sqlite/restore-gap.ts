/**
 * The feed_state rows a restore leaves (sqlite-restore.ts): `restore-gap:S` holds the
 * position the restored feed continues after; positions above S and below it are never given.
 */
export const RESTORE_GAP_PREFIX = 'restore-gap:';
