/** The names of snapshots made into a folder: their time, so they sort oldest first. */
export const SNAPSHOT_PREFIX = 'users-';

export const snapshotName = (now = new Date()) => `${SNAPSHOT_PREFIX}${now.toISOString().replace(/[-:.]/g, '')}.db`;
