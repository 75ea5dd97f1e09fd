import { v7 as uuidv7 } from 'uuid';
import { startTestServer } from './dist/test/helpers/test-server.js';
import { withDefaults } from './dist/src/users/user.js';
const kind = process.argv[2] ?? 'sqlite';
const server = await startTestServer({ store: kind });
const now = new Date().toISOString();
const L = 'abcdefghijklmnop';
const users = Array.from({ length: 20000 }, (_, i) => { const given = `${L[i % 16]}${'aeiou'[i % 5]}n${i % 97}`; const family = `${L[(i * 7) % 16]}ar${i % 89}`;
  return withDefaults({ uid: uuidv7(), username: `p${i}`, email_address: `p${i}@example.com`, legacy_ids: [], display_name: `${given} ${family}`, attributes: {}, name: { given_name: given, family_name: family }, created_at: now, updated_at: now, version: 1 }); });
for (let i = 0; i < users.length; i += 2000) await server.store.importUsers(users.slice(i, i + 2000), 'fail', now);
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start');
for (let i = 0; i < 10; i++) { const r = await fetch(server.baseUrl + '/users?q=a&sort=-display_name,given_name,family_name&count=true&limit=1000', { headers: { 'accept-encoding': 'identity' } }); await r.text(); }
for (let i = 0; i < 5; i++) { const r = await fetch(server.baseUrl + '/scim/v2/Users?startIndex=' + (5000 + i) + '&count=1&sortBy=name.familyName'); await r.text(); }
const { profile } = await s.post('Profiler.stop');
// self time by function
const self = new Map(); const total = profile.endTime - profile.startTime;
const dt = profile.timeDeltas; const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
for (const n of profile.nodes) { const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (counts.get(n.id) ?? 0)); }
const all = profile.samples.length;
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(100 * v / all).toFixed(1)}% ${k}`).join('\n'));
await server.close();
