/**
 * Import files for the import scenarios: seeded user `i` (seed-data.ts) as a
 * JSON Lines record without uid or timestamps, as an operator's export from an
 * older system would be. The `changed` variant gives every user another
 * display name, so importing it over the first changes every user.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { seededFields } from './seed-data.js';

export type ImportFileVariant = 'new' | 'changed';

export async function writeImportFile(path: string, users: number, variant: ImportFileVariant): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < users; i++) {
    const fields = seededFields(i);
    const record = variant === 'new' ? fields : { ...fields, display_name: `${fields.display_name} (${variant})` };
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
