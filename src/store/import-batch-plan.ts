/**
 * A whole import batch planned at once, for stores that read every holder of a
 * batch in one query and write the batch in one statement (PostgreSQL).
 *
 * Contract: the outcomes are exactly those of importing the records one by one
 * in order with planImport() (import-plan.ts) over a store that already holds
 * the writes of the records before, so a record sees the users created earlier
 * in its batch and the keys an earlier update freed. The writes are the net
 * effect: the final state of every user the batch creates or changes, and the
 * key rows to insert, delete or hand to another user. No key row is both
 * deleted and inserted, so one statement can apply them without an ordering.
 */
import { keysOf, type KeyEntry, type User } from '../users/user.js';
import { planImport, updatedUser, updateOutcome, type Holder, type ImportOutcome, type ImportUser, type OnConflict } from './import-plan.js';

/** What the store holds, read at the start of the batch. */
export interface BatchSnapshot {
  /** Who holds each uid and key the batch's records name (uid holders with key 'uid'). */
  holders: readonly (Holder & { value: string })[];
  /** The current row of every holder: needed with `update` only, for the users it may change. */
  users: readonly User[];
}

export interface KeyRow {
  key: string;
  value: string;
  uid: string;
}

export interface BatchWrites {
  /** Users the batch creates, in their final state (a user created and then updated in one batch is inserted as updated). */
  inserts: User[];
  /** Existing users the batch changes, in their final state. */
  updates: User[];
  keyInserts: KeyRow[];
  keyDeletes: KeyRow[];
  /** Key rows that stay and change owner (freed by one user of the batch, taken by another). */
  keyMoves: KeyRow[];
}

export interface BatchPlan {
  /** One per record up to and including a `fail` conflict, in order. */
  outcomes: ImportOutcome[];
  writes: BatchWrites;
}

/** A snapshot that disagrees with itself: a holder whose row was not read, or whose row no longer holds the key. */
export class StaleSnapshotError extends Error {
  constructor(detail: string) {
    super(`the holders read for an import batch changed before they were locked: ${detail}`);
    this.name = 'StaleSnapshotError';
  }
}

const slot = (key: string, value: string) => `${key}\u0000${value}`;

const KEYS = new WeakMap<User, KeyEntry[]>();

/** keysOf(user), computed once per user object: a batch asks for the keys of each record several times. Users are never mutated. */
export function keysOfUser(user: User): KeyEntry[] {
  let keys = KEYS.get(user);
  if (keys === undefined) KEYS.set(user, (keys = keysOf(user)));
  return keys;
}

/** Throws StaleSnapshotError when a holder's row, as locked, no longer holds the key the holders query saw. */
function checkSnapshot(snapshot: BatchSnapshot): void {
  if (snapshot.users.length === 0) return;
  const heldBy = new Map(snapshot.users.map((u) => [u.uid, new Set([slot('uid', u.uid), ...keysOfUser(u).map((k) => slot(k.key, k.value))])]));
  for (const h of snapshot.holders) {
    const held = heldBy.get(h.uid);
    if (held !== undefined && !held.has(slot(h.key, h.value))) throw new StaleSnapshotError(`${h.key} of ${h.uid}`);
  }
}

export function planBatch(users: readonly ImportUser[], onConflict: OnConflict, now: string, snapshot: BatchSnapshot): BatchPlan {
  checkSnapshot(snapshot);
  const owner = new Map<string, string>(snapshot.holders.map((h) => [slot(h.key, h.value), h.uid]));
  const current = new Map<string, User>(snapshot.users.map((u) => [u.uid, u]));
  const created = new Set<string>();
  const changed = new Set<string>();
  const outcomes: ImportOutcome[] = [];

  for (const user of users) {
    const holders: Holder[] = [];
    const uidHolder = owner.get(slot('uid', user.uid));
    if (uidHolder !== undefined) holders.push({ key: 'uid', uid: uidHolder });
    for (const entry of keysOfUser(user)) {
      const uid = owner.get(slot(entry.key, entry.value));
      if (uid !== undefined) holders.push({ key: entry.key, uid });
    }
    const plan = planImport(holders, onConflict);
    if (plan.action === 'conflict') {
      outcomes.push({ status: 'conflict', key: plan.key });
      if (onConflict === 'fail') break;
      continue;
    }
    if (plan.action === 'create') {
      owner.set(slot('uid', user.uid), user.uid);
      for (const entry of keysOfUser(user)) owner.set(slot(entry.key, entry.value), user.uid);
      current.set(user.uid, user);
      created.add(user.uid);
      outcomes.push({ status: 'created', uid: user.uid });
      continue;
    }
    const existing = current.get(plan.uid);
    if (existing === undefined) throw new StaleSnapshotError(`the row of holder ${plan.uid} was not read`);
    const update = updatedUser(user, existing, now, onConflict);
    outcomes.push(updateOutcome(existing.uid, update));
    if (!('next' in update) || update.next === undefined) continue;
    const { next } = update;
    for (const entry of keysOfUser(existing)) owner.delete(slot(entry.key, entry.value));
    for (const entry of keysOfUser(next)) owner.set(slot(entry.key, entry.value), next.uid);
    current.set(next.uid, next);
    if (!created.has(next.uid)) changed.add(next.uid);
  }
  return { outcomes, writes: netWrites(snapshot, current, created, changed) };
}

/** The key rows before (of the users the batch changes) against after (of every user it writes). */
function netWrites(snapshot: BatchSnapshot, current: Map<string, User>, created: Set<string>, changed: Set<string>): BatchWrites {
  const before = new Map<string, KeyRow>();
  for (const user of snapshot.users) {
    if (!changed.has(user.uid)) continue;
    for (const { key, value } of keysOfUser(user)) before.set(slot(key, value), { key, value, uid: user.uid });
  }
  const after = new Map<string, KeyRow>();
  for (const uid of [...created, ...changed]) {
    for (const { key, value } of keysOfUser(current.get(uid)!)) after.set(slot(key, value), { key, value, uid });
  }
  const writes: BatchWrites = {
    inserts: [...created].map((uid) => current.get(uid)!),
    updates: [...changed].map((uid) => current.get(uid)!),
    keyInserts: [],
    keyDeletes: [],
    keyMoves: [],
  };
  for (const [name, row] of after) {
    const held = before.get(name);
    if (held === undefined) writes.keyInserts.push(row);
    else if (held.uid !== row.uid) writes.keyMoves.push(row);
  }
  for (const [name, row] of before) if (!after.has(name)) writes.keyDeletes.push(row);
  return writes;
}
