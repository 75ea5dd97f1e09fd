// Bundles the service's production entry (src/server.ts) into dist/bundle/server.mjs.
// Why: Node spends most of the service's start-up resolving and loading about a
// thousand ES modules one by one (TypeBox alone is 709 files); one bundle is
// parsed in one go (docs/performance.md, "Start-up"). `npm start` and the
// end-to-end tests run this bundle; dist/src stays the library and CLI build.
//
// Left outside the bundle: native and lazily loaded drivers (better-sqlite3 and
// better-sqlite3-node-api: src/store/sqlite/sqlite-driver.ts picks one by Node-API version;
// postgres, ioredis: each store still loads only its own driver, and dynamic
// imports become chunks loaded on demand), @fastify/swagger-ui (it serves its
// files from its own folder) and pino (its transports resolve worker files).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry content hashes: start empty so no stale chunk is left behind.
rmSync('dist/bundle', { recursive: true, force: true });

await build({
  entryPoints: { server: 'src/server.ts' },
  outdir: 'dist/bundle',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Stack traces map to src/ without copying every source into the map (smaller map, faster start).
  sourcesContent: false,
  external: ['better-sqlite3', 'better-sqlite3-node-api', 'postgres', 'ioredis', '@fastify/swagger-ui', 'pino'],
  // jsonc-parser's main entry is a UMD module whose require() calls esbuild cannot follow: bundle its ES module build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // The bundled CommonJS packages (Fastify and its plugins) call require() for Node's modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Whitespace and syntax only: names stay, and the source map still points into src/.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
