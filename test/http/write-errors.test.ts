/**
 * Errors of POST /users (CONTRACT §1, §6): every one is an RFC 9457 problem, names
 * what is wrong, and writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachStore } from '../helpers/stores.js';
import type { TestResponse } from '../helpers/http-client.js';
import { assertProblem } from '../helpers/problem-assertions.js';
import { newUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const pointers = (res: TestResponse): string[] => (res.body?.errors ?? []).map((e: { pointer: string }) => e.pointer);

describeEachStore('POST /users errors', (store) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store });
  });
  after(async () => server.close());

  /** A value the lookup route can ask for (an empty or NUL value is itself a 400 there). */
  const lookable = (value: unknown): value is string => typeof value === 'string' && value !== '' && !value.includes('\u0000');

  /** No user holds any key of `body` (checked by lookup and by search). */
  async function assertNothingWritten(body: Record<string, unknown>): Promise<void> {
    if (lookable(body.username)) {
      assert.equal((await server.get(`/users/username:${encodeURIComponent(body.username)}`)).status, 404, 'username is free');
      const search = await server.get(`/users?username=${encodeURIComponent(body.username)}`);
      assert.deepEqual(search.body, [], 'search finds nothing');
    }
    if (lookable(body.email_address)) {
      assert.equal((await server.get(`/users/email_address:${encodeURIComponent(body.email_address)}`)).status, 404, 'email is free');
    }
    const legacy = Array.isArray(body.legacy_ids) ? body.legacy_ids : [];
    for (const id of legacy) {
      if (lookable(id)) {
        assert.equal((await server.get(`/users/legacy_id:${encodeURIComponent(id)}`)).status, 404, `legacy id ${id} is free`);
      }
    }
  }

  /** POSTs `body` (as `text` when given), expects a 400 naming `pointer`, and checks that nothing was written. */
  async function rejects(body: Record<string, unknown>, pointer: string, text = JSON.stringify(body)): Promise<TestResponse> {
    const res = await server.request('POST', '/users', { body: text, headers: { 'content-type': 'application/json' } });
    assertProblem(res, 400, 'validation-failed');
    assert.ok(pointers(res).includes(pointer), `pointer ${pointer} in ${JSON.stringify(res.body.errors)}`);
    await assertNothingWritten(body);
    return res;
  }

  describe('bodies that are not a JSON object', () => {
    for (const [name, payload, type] of [
      ['malformed JSON', '{"username": "x",', 'malformed-request'],
      ['an empty body', '', 'malformed-request'],
      ['a JSON array', '[{"username":"a","email_address":"a@example.com"}]', 'validation-failed'],
      ['a JSON string', '"alice"', 'validation-failed'],
      ['JSON null', 'null', 'validation-failed'],
    ] as const) {
      it(`answers 400 ${type} problem to ${name}`, async () => {
        const res = await server.request('POST', '/users', { body: payload, headers: { 'content-type': 'application/json' } });
        assertProblem(res, 400, type);
        assert.equal(res.body.instance, '/users');
      });
    }
  });

  describe('fields', () => {
    it('names every unknown field and creates nothing', async () => {
      const body = newUser({ usrname: 'typo', nickname: 'n' });
      const res = await rejects(body, '/usrname');
      assert.ok(pointers(res).includes('/nickname'), JSON.stringify(res.body.errors));
    });

    for (const field of ['uid', 'created_at', 'updated_at', 'version']) {
      it(`rejects the read-only field ${field} on POST`, async () => {
        const value = field === 'version' ? 1 : field === 'uid' ? '01937f4e-8c2a-7b3d-9e4f-0a1b2c3d4e5f' : '2026-11-21T10:00:00.000Z';
        await rejects(newUser({ [field]: value }), `/${field}`);
      });
    }

    it('rejects a missing username and a missing email address', async () => {
      await rejects({ email_address: 'missing-username@example.com' }, '/username');
      await rejects({ username: 'missing-email' }, '/email_address');
    });

    for (const [field, value] of [
      ['username', ['bob']],
      ['username', 42],
      ['email_address', ['x@example.com']],
      ['legacy_ids', 'x'],
      ['legacy_ids', [7]],
      ['legacy_id', ['x']],
      ['display_name', 5],
      ['attributes', []],
      ['attributes', 'a=b'],
    ] as const) {
      it(`never coerces ${field}: ${JSON.stringify(value)}`, async () => {
        const pointer = field === 'legacy_ids' && Array.isArray(value) ? '/legacy_ids/0' : `/${field}`;
        await rejects(newUser({ [field]: value }), pointer);
      });
    }
  });

  describe('field rules', () => {
    for (const [name, username] of [
      ['a space', 'bob smith'],
      ['a slash', 'bob/smith'],
      ['a colon', 'bob:smith'],
      ['65 characters', 'u'.repeat(65)],
      ['no characters', ''],
    ] as const) {
      it(`rejects a username with ${name}`, async () => {
        await rejects(newUser({ username }), '/username');
      });
    }

    it('accepts a username of exactly 64 characters', async () => {
      assert.equal((await server.post('/users', newUser({ username: 'u'.repeat(64) }))).status, 201);
    });

    for (const [name, email] of [
      ['no @', 'no-at.example.com'],
      ['no dot in the domain', 'someone@localhost'],
      ['255 characters', `${'l'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(58)}.com`],
      ['a 65-character local part', `${'l'.repeat(65)}@example.com`],
    ] as const) {
      it(`rejects an email address with ${name}`, async () => {
        if (name === '255 characters') assert.equal(email.length, 255);
        await rejects(newUser({ email_address: email }), '/email_address');
      });
    }

    for (const [name, legacyIds, pointer] of [
      ['101 items', Array.from({ length: 101 }, (_, i) => `many-${i}`), '/legacy_ids'],
      ['duplicates', ['dup-1', 'dup-1'], '/legacy_ids'],
      ['a 129-character id', ['x'.repeat(129)], '/legacy_ids/0'],
      ['a control character', ['ok-1', 'tab\there'], '/legacy_ids/1'],
      ['a newline', ['line\nbreak'], '/legacy_ids/0'],
      ['a leading space', [' lead'], '/legacy_ids/0'],
      ['an empty id', [''], '/legacy_ids/0'],
    ] as const) {
      it(`rejects legacy ids with ${name}`, async () => {
        await rejects(newUser({ legacy_ids: legacyIds }), pointer);
      });
    }

    it('rejects a display name of 257 characters and accepts one of 256', async () => {
      await rejects(newUser({ display_name: 'd'.repeat(257) }), '/display_name');
      assert.equal((await server.post('/users', newUser({ display_name: 'd'.repeat(256) }))).status, 201);
    });

    it('rejects attributes that serialise to more than 16 KiB', async () => {
      await rejects(newUser({ attributes: { blob: 'x'.repeat(16 * 1024) } }), '/attributes');
    });
  });

  describe('NUL and prototype keys', () => {
    for (const [name, overrides, pointer] of [
      ['username', { username: 'a\u0000b' }, '/username'],
      ['email_address', { email_address: 'a\u0000b@example.com' }, '/email_address'],
      ['a legacy id', { legacy_ids: ['ok-nul', 'x\u0000y'] }, '/legacy_ids/1'],
      ['display_name', { display_name: 'x\u0000' }, '/display_name'],
      ['an attribute value', { attributes: { team: { name: 'r\u0000d' } } }, '/attributes/team/name'],
      ['an attribute key', { attributes: { team: { 'k\u0000': 1 } } }, '/attributes/team/k\u0000'],
      ['an attribute array item', { attributes: { list: ['a', 'b\u0000'] } }, '/attributes/list/1'],
    ] as const) {
      it(`rejects U+0000 in ${name} with the pointer ${JSON.stringify(pointer)}`, async () => {
        await rejects(newUser(overrides), pointer);
      });
    }

    // Prototype poisoning (the shapes secure-json-parse refuses): `__proto__` anywhere, `constructor.prototype`.
    const poison = [
      ['__proto__', '{"__proto__": {"polluted": true}}'],
      ['constructor', '{"constructor": {"prototype": {"polluted": true}}}'],
    ] as const;
    for (const [name, member] of poison) {
      for (const where of ['top level', 'attributes']) {
        it(`rejects a ${name} key at the ${where} of the body with 400 and pollutes nothing`, async () => {
          const body = newUser();
          const head = JSON.stringify(body).slice(0, -1);
          const text = where === 'top level' ? `${head}, ${member.slice(1, -1)}}` : `${head}, "attributes": ${member}}`;
          const res = await server.request('POST', '/users', { body: text, headers: { 'content-type': 'application/json' } });
          assertProblem(res, 400, 'malformed-request');
          await assertNothingWritten(body);
          assert.equal(({} as Record<string, unknown>).polluted, undefined);
        });
      }
    }
  });

  describe('depth and numbers', () => {
    // docs/api.md: bodies nest at most 32 levels deep (the body object is level 1); numbers must
    // survive the round trip, so 1e400 and integers beyond ±2^53 are a 400 naming their pointer.

    /** `levels` levels of objects nested under the member `a`: 1 is `{}`, 2 is `{"a":{}}`. */
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = {};
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };

    it('accepts a body nested 32 levels deep', async () => {
      const body = newUser({ attributes: nested(31) });
      const res = await server.post('/users', body);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.attributes, body.attributes);
    });

    it('rejects a body nested 33 levels deep with a 400 naming the pointer of the 33rd level', async () => {
      await rejects(newUser({ attributes: nested(32) }), `/attributes${'/a'.repeat(31)}`);
    });

    it('rejects a body nested 5000 levels deep with a 400, not a 500', async () => {
      const body = newUser();
      const text = `${JSON.stringify(body).slice(0, -1)}, "attributes": {"deep": ${'['.repeat(5000)}${']'.repeat(5000)}}}`;
      const res = await rejects(body, `/attributes/deep${'/0'.repeat(30)}`, text);
      assert.equal(res.body.errors.length, 1, JSON.stringify(res.body.errors));
    });

    for (const [name, literal] of [
      ['1e400 (Infinity to a JSON parser)', '1e400'],
      ['-1e400', '-1e400'],
      ['9007199254740993 (2^53 + 1, rounded by a JSON parser)', '9007199254740993'],
      ['-9007199254740993', '-9007199254740993'],
    ] as const) {
      it(`rejects the number ${name} with a 400 naming /attributes/n`, async () => {
        const body = newUser();
        await rejects(body, '/attributes/n', `${JSON.stringify(body).slice(0, -1)}, "attributes": {"n": ${literal}}}`);
      });
    }

    it('accepts 9007199254740991 (2^53 - 1) and -9007199254740991, and reads them back exactly', async () => {
      const body = newUser();
      const text = `${JSON.stringify(body).slice(0, -1)}, "attributes": {"n": 9007199254740991, "m": -9007199254740991}}`;
      const res = await server.request('POST', '/users', { body: text, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 201, res.text);
      const read = await server.get(`/users/${res.body.uid}`);
      assert.match(read.text, /"n":9007199254740991\b/);
      assert.match(read.text, /"m":-9007199254740991\b/);
    });
  });

  describe('size and media type', () => {
    it('answers 413 problem to a body over 64 KiB', async () => {
      const body = newUser({ attributes: { blob: 'x'.repeat(65 * 1024) } });
      assertProblem(await server.post('/users', body), 413, 'payload-too-large');
      await assertNothingWritten(body);
    });

    for (const [name, headers] of [
      ['text/plain', { 'content-type': 'text/plain' }],
      ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['no content type', {}],
    ] as const) {
      it(`answers 415 problem to a body sent as ${name}`, async () => {
        const body = newUser();
        const res = await server.request('POST', '/users', { body: JSON.stringify(body), headers });
        assertProblem(res, 415, 'unsupported-media-type');
        await assertNothingWritten(body);
      });
    }
  });

  it('leaves the whole store as it was after a series of rejected requests', async () => {
    const seed = await server.post('/users', newUser({ legacy_ids: ['snapshot-1'] }));
    assert.equal(seed.status, 201);
    const snapshot = await server.get('/users?limit=1000');
    assert.equal(snapshot.status, 200);
    const bad: Record<string, unknown>[] = [
      newUser({ extra: 1 }),
      newUser({ username: 42 }),
      newUser({ legacy_ids: ['snapshot-1'] }),
      newUser({ username: String(seed.body.username).toUpperCase() }),
      newUser({ attributes: { k: 'v\u0000' } }),
      newUser({ version: 7 }),
    ];
    for (const body of bad) assert.ok((await server.post('/users', body)).status >= 400);
    assert.equal((await server.request('POST', '/users', { body: '{', headers: { 'content-type': 'application/json' } })).status, 400);
    const now = await server.get('/users?limit=1000');
    assert.deepEqual(now.body, snapshot.body);
  });

  describe('conflicts', () => {
    let holder: Record<string, any>;
    before(async () => {
      const res = await server.post('/users', newUser({ username: 'Holder', email_address: 'Holder@Example.com', legacy_ids: ['held-1', 'held-2'], display_name: 'Secret Holder' }));
      assert.equal(res.status, 201, res.text);
      holder = res.body;
    });

    const cases = [
      ['username', { username: 'HOLDER' }],
      ['email_address', { email_address: 'holder@example.COM' }],
      ['legacy_id', { legacy_ids: ['fresh-1', 'held-2'] }],
      ['legacy_id', { legacy_id: 'held-1' }],
    ] as const;
    cases.forEach(([key, taken], i) => {
      it(`answers 409 naming ${key} when ${JSON.stringify(taken)} is taken, reveals nothing and writes nothing`, async () => {
        const fresh = newUser({ legacy_ids: [`free-${i}-a`, `free-${i}-b`] });
        const body: Record<string, unknown> = { ...fresh, ...taken };
        if ('legacy_id' in taken) delete body.legacy_ids;
        const res = await server.post('/users', body);
        assertProblem(res, 409, 'key-conflict');
        assert.equal(res.body.key, key);
        assert.equal('uid' in res.body, false);
        for (const secret of [holder.uid, holder.display_name, holder.email_address, holder.username]) {
          assert.equal(res.text.includes(secret), false, `409 reveals ${secret}`);
        }
        // The second user's other keys stay free: nothing of it was written, and it can be created as is.
        await assertNothingWritten(fresh);
        assert.equal((await server.post('/users', fresh)).status, 201);
      });
    });

    it('leaves the holder unchanged', async () => {
      const res = await server.get(`/users/${holder.uid}`);
      assert.deepEqual(res.body, holder);
    });
  });

  it('a body failing one rule thousands of times lists at most 100 errors and says how many more', async () => {
    const body = newUser({ legacy_ids: Array.from({ length: 3000 }, (_, i) => ` bad${i}`) });
    const res = await server.post('/users', body);
    assertProblem(res, 400, 'validation-failed');
    assert.equal(res.body.errors.length, 101);
    assert.match(res.body.errors[100].detail, /^and \d+ more errors$/);
    assert.ok(res.text.length < 64 * 1024, `${res.text.length} bytes`);
  });
});
