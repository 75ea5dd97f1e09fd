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

/**
 * The HR-shaped file an administrator imports (docs/import.md, "Importing an HR export
 * with other column names"): a byte-order mark, `;` between cells, CRLF line ends, seven
 * columns named as an HR system names them (the seeded person `i`: names in several
 * scripts), one of them (`Badge`) unknown to the import. Read it with HR_IMPORT_ARGS.
 */
export const HR_IMPORT_ARGS = [
  '--delimiter', ';',
  '--map', 'Login=username,Mail=email_address,First Name=given_name,Surname=family_name,Job Title=title,dept=department',
  '--extra-columns', 'attributes',
] as const;

const csvCell = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export async function writeHrImportFile(path: string, users: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('\uFEFFLogin;Mail;First Name;Surname;Job Title;dept;Badge\r\n');
  for (let i = 0; i < users; i++) {
    const f = seededFields(i);
    const row = [f.username, f.email_address, f.name.given_name, f.name.family_name, f.title, f.department, `B-${i}`].map(csvCell).join(';');
    if (!out.write(`${row}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
