/** The text of an import file from its bytes, however the bytes arrive in chunks (text-decoding.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodedText, EncodingError, type Encoding } from '../../src/cli/text-decoding.js';

/** `bytes` cut into chunks of `size` bytes, as a pipe may deliver them. */
async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function text(bytes: Buffer, size: number, encoding?: Encoding): Promise<string> {
  let out = '';
  for await (const piece of decodedText(chunks(bytes, size), encoding)) out += piece;
  return out;
}

const SAMPLE = 'username,given_name\r\nzoe,Zoë 😀 €\r\nnuno,Nuño\r\n';

describe('decodedText', () => {
  for (const size of [1, 2, 3, 5, 64 * 1024]) {
    it(`gives the same text whatever the chunks (${size} bytes): UTF-8, UTF-16LE and BE with their byte-order marks`, async () => {
      assert.equal(await text(Buffer.from(SAMPLE), size), SAMPLE);
      assert.equal(await text(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE)]), size), SAMPLE);
      assert.equal(await text(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SAMPLE, 'utf16le')]), size), SAMPLE);
      assert.equal(await text(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(SAMPLE, 'utf16le').swap16()]), size), SAMPLE);
    });
  }

  it('names the line of the first invalid byte, also when it is chunks after the start', async () => {
    const lines = [...Array.from({ length: 5000 }, (_, i) => `user${i},Ann`), 'jose,Jos\xe9'];
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'latin1');
    await assert.rejects(text(bytes, 4096), (error: unknown) => error instanceof EncodingError && error.line === 5001 && /line 5001 is not valid UTF-8; read as windows-1252 it says "jose,José"/.test(error.message));
    assert.equal(await text(bytes, 4096, 'windows-1252'), `${lines.join('\n')}\n`);
  });

  it('a file cut inside a character, and an unpaired UTF-16 surrogate, are errors, never U+FFFD', async () => {
    await assert.rejects(text(Buffer.from([0x61, 0x0a, 0xc3]), 1), (error: unknown) => error instanceof EncodingError && error.line === 2);
    const lone = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from('\n', 'utf16le')]);
    await assert.rejects(text(lone, 3), (error: unknown) => error instanceof EncodingError && error.line === 2 && /not valid utf-16le text/.test(error.message));
  });

  it('windows-1252 reads 0x80–0x9F as its own characters (€, ’, Œ), not as ISO-8859-1 control characters', async () => {
    const high = await text(Buffer.from(Array.from({ length: 32 }, (_, i) => 0x80 + i)), 7, 'windows-1252');
    assert.equal(high, '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ');
    assert.equal(await text(Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0xa0, 0xff]), 1, 'windows-1252'), 'José\u00A0ÿ');
  });
});
