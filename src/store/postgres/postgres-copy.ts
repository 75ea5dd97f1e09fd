/**
 * `COPY … FROM STDIN` in PostgreSQL's text format: how the bulk import sends a
 * batch's rows to its staging tables (postgres-bulk-import.ts). A row is its
 * fields joined by tabs and ended by a newline; a field is the value with
 * backslash, tab, newline and carriage return escaped, and null is `\N`. Every
 * other character, any Unicode included, goes as it is (the connection speaks
 * UTF-8); text cannot hold NUL, in COPY as in any statement.
 *
 * The staging tables a batch is copied into have only text columns and no
 * constraints, so the server has nothing to refuse in a COPY (the casts and
 * checks happen in the statements that read them). That matters: postgres.js
 * resolves a COPY's stream before the server answers, and an error the server
 * sends during the copy would reach no one. A value with NUL, which the service
 * refuses at its edge (users/user-input.ts isStorable), is refused here before
 * anything is sent.
 */
import type { TransactionSql } from 'postgres';

/** A field of a text-format COPY row: `\N` for null, else the value with `\`, tab, newline and carriage return escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  if (value.includes('\0')) throw new Error('a COPY field cannot hold U+0000');
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, escapeOne) : value;
}

function escapeOne(c: string): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    default:
      return '\\r';
  }
}

/** A text-format COPY row of `fields`, newline included. */
export function copyRow(fields: readonly (string | null)[]): string {
  return `${fields.map(copyField).join('\t')}\n`;
}

/** Text sent per CopyData message: large enough to cost little per message, small enough to bound what a write holds. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Copies `rows` (each from copyRow) into `table` (`columns` in their order) in `tx`.
 * Resolves when the server has stored them all; nothing is sent for no rows.
 */
export async function copyRows(tx: TransactionSql, table: string, columns: readonly string[], rows: Iterable<string>): Promise<void> {
  let chunk = '';
  const chunks: string[] = [];
  for (const row of rows) {
    chunk += row;
    if (chunk.length >= CHUNK_CHARS) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') chunks.push(chunk);
  if (chunks.length === 0) return;
  const stream = await tx.unsafe(`COPY ${table} (${columns.join(', ')}) FROM STDIN`).writable();
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    let next = 0;
    const write = (): void => {
      while (next < chunks.length) {
        const more = stream.write(chunks[next++] as string);
        if (!more) {
          stream.once('drain', write);
          return;
        }
      }
      stream.end(resolve);
    };
    write();
  });
}
