/**
 * `npm run migrate`: applies the pending schema migrations of the configured
 * store and exits, without serving. The service also migrates on every start
 * (under the same lock), so this is for deploy pipelines that migrate first.
 */
import { ConfigError, loadConfig } from './config.js';
import { migrateStore } from './store/open-store.js';

try {
  const config = loadConfig();
  const { applied, version } = await migrateStore(config.store);
  process.stdout.write(`user-service: schema at version ${version} (${applied} migration${applied === 1 ? '' : 's'} applied)\n`);
} catch (error) {
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : `migration failed: ${(error as Error).message}`;
  process.stderr.write(`user-service: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
