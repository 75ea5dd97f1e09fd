/**
 * The bytes of an import file, gunzipped when it is gzip-compressed. What decides is
 * the file's first two bytes (the gzip magic number 1f 8b, RFC 1952 §2.3.1), never
 * its name: an `export | gzip` saved as `users.txt` is read the same as `users.jsonl.gz`.
 * Concatenated gzip members are read one after the other, as gunzip does.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** The file is gzip-compressed and its compressed bytes are damaged or cut short. */
export class CompressedInputError extends Error {}

const isGzip = (head: Buffer) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

export async function* uncompressedBytes(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  // The first chunk of a pipe may hold a single byte: read on until two are there.
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done === true) break;
    head = Buffer.concat([head, next.value]);
  }
  async function* whole(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  if (!isGzip(head)) {
    yield* whole();
    return;
  }
  const gunzip = createGunzip();
  // pipeline() hands a read error of the file to gunzip, which ends the iteration with it.
  pipeline(Readable.from(whole(), { objectMode: false }), gunzip).catch(() => {});
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    // A read error of the file itself keeps its own words; zlib's are the compressed data's.
    if ((error as { code?: string }).code?.startsWith('Z_') !== true) throw error;
    throw new CompressedInputError(`is gzip-compressed, and its compressed data cannot be read (${(error as Error).message}): the file is damaged or cut short`);
  } finally {
    gunzip.destroy();
  }
}
