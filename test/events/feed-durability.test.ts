/**
 * The change feed and the users agree after a crash (CONTRACT §7 and §11): the
 * service, a real process, is killed with SIGKILL while concurrent writes are in
 * flight; after a restart every acknowledged write is there, the events are
 * positions 1…latest with no gap, and replaying every event by version gives
 * exactly the users the store holds: no event without its write, no write
 * without its event.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runCli } from '../cli/run-cli.js';
import { startChildServer, type StartedChildServer } from '../helpers/child-server.js';
import { createTestDatabaseUrl, describeEachStore, openTestStoreAt } from '../helpers/stores.js';
import { newUser } from '../helpers/test-server.js';

const patchHeaders = { 'content-type': 'application/merge-patch+json' };

describeEachStore('the change feed across a crash', (kind) => {
  it('after kill -9 mid-writes, every acknowledged write is there and the events replay to exactly the users stored', async () => {
    const { databaseUrl, remove } = await createTestDatabaseUrl(kind);
    const env = { DATABASE_URL: databaseUrl };
    let server: StartedChildServer | undefined;
    try {
      server = await startChildServer({ env });
      const running = server;
      /** What the service acknowledged: the version each user reached, or null once deleted. */
      const acknowledged = new Map<string, number | null>();
      /** Users whose DELETE was sent: one the kill cut off may have committed without its 204. */
      const deleteSent = new Set<string>();
      let acks = 0;
      let killed = false;
      /** Counts an acknowledged write; the 150th kills the process while the other writers' requests are in flight. */
      const ack = () => {
        acks += 1;
        if (acks >= 150 && !killed) {
          killed = true;
          running.kill('SIGKILL');
        }
      };
      // Four writers, each creating, patching and deleting its own users until the process dies.
      const writers = Array.from({ length: 4 }, async () => {
        const mine: string[] = [];
        for (let i = 0; !killed; i++) {
          try {
            if (i % 5 === 4 && mine.length > 0) {
              const uid = mine.shift()!;
              deleteSent.add(uid);
              if ((await running.delete(`/users/${uid}`)).status === 204) {
                acknowledged.set(uid, null);
                ack();
              }
            } else if (i % 5 >= 2 && mine.length > 0) {
              const uid = mine[i % mine.length]!;
              const res = await running.request('PATCH', `/users/${uid}`, { body: JSON.stringify({ attributes: { i } }), headers: patchHeaders });
              if (res.status === 200) {
                acknowledged.set(uid, res.body.version);
                ack();
              }
            } else {
              const res = await running.post('/users', newUser());
              if (res.status === 201) {
                acknowledged.set(res.body.uid, 1);
                mine.push(res.body.uid);
                ack();
              }
            }
          } catch {
            // The connection broke: the process is gone (or going). What it acknowledged is recorded.
          }
        }
      });
      await Promise.all(writers);
      await running.waitForExit();

      server = await startChildServer({ env });
      const store = await openTestStoreAt(kind, databaseUrl);
      let latest: number;
      const events: { position: number; type: string; subject: string; data: string }[] = [];
      try {
        latest = await store.events.settle();
        for (let after = 0; ; ) {
          const page = await store.events.read(after, 1000);
          if (page.events.length === 0) break;
          events.push(...page.events);
          after = page.events[page.events.length - 1]!.position;
        }
      } finally {
        await store.close();
      }
      const exported = await runCli(['export'], env);
      assert.equal(exported.code, 0, exported.stderr);
      const stored = new Map(exported.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { uid: string; version: number }).map((user) => [user.uid, user]));

      // Every acknowledged write survived.
      for (const [uid, version] of acknowledged) {
        if (version === null) assert.equal(stored.has(uid), false, `${uid} was deleted`);
        else if (!stored.has(uid) && deleteSent.has(uid)) continue; // deleted by a DELETE whose answer the kill cut off
        else assert.ok((stored.get(uid)?.version ?? 0) >= version, `${uid} kept version ${version}`);
      }
      // Positions 1…latest, none missing.
      assert.deepEqual(events.map((e) => e.position), Array.from({ length: latest }, (_, i) => i + 1));
      // Replaying the events gives exactly the stored users.
      const replica = new Map<string, { uid: string; version: number }>();
      for (const event of events) {
        const data = JSON.parse(event.data) as { uid: string; version: number };
        if (event.type === 'user.deleted') replica.delete(event.subject);
        else replica.set(event.subject, data);
      }
      assert.deepEqual(new Map([...replica].sort(([a], [b]) => a.localeCompare(b))), new Map([...stored].sort(([a], [b]) => a.localeCompare(b))));
      assert.ok(acks >= 150 && stored.size > 0);
    } finally {
      await server?.dispose();
      await remove();
    }
  });
});
