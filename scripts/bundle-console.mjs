// Builds the operator console (src/console/) into dist/console/: one minified
// module, its style sheet and its page. The service serves these files itself
// (src/http/console-page.ts): no CDN, nothing fetched from another origin.
// `tsc -p src/console` type-checks the same sources first (npm run build).
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/console', { recursive: true, force: true });
mkdirSync('dist/console', { recursive: true });

await build({
  entryPoints: { console: 'src/console/main.ts' },
  outdir: 'dist/console',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  // Browsers of the last few years: fetch with streamed bodies, <dialog>, ES2020.
  target: ['es2020', 'chrome100', 'firefox100', 'safari15.4'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css']) copyFileSync(`src/console/${file}`, `dist/console/${file}`);
