/**
 * The text of an import file, from its bytes: in the encoding `--encoding` names
 * (UTF-8 by default), or the one its byte-order mark names when none was given.
 *
 * Contract: a byte sequence that is not valid in the encoding is never replaced
 * (no U+FFFD reaches a record): the first one ends the text with an
 * EncodingError naming its line and the `--encoding` to give. A byte-order mark
 * is not part of the text. Decoding is Node's TextDecoder (WHATWG Encoding), with
 * `fatal` set, except windows-1252: Node 20's decoder of that name reads 0x80–0x9F
 * as ISO-8859-1 does (0x80 as U+0080, not €), so it is read here by its table
 * (WINDOWS_1252_HIGH). `iso-8859-1` and `latin1` are, as in every browser, read as
 * windows-1252 (they differ only in 0x80–0x9F, control characters in ISO-8859-1).
 */
import { TextDecoder } from 'node:util';

export type Encoding = 'utf-8' | 'windows-1252' | 'utf-16' | 'utf-16le' | 'utf-16be';

const LABELS = new Map<string, Encoding>([
  ['utf-8', 'utf-8'],
  ['utf8', 'utf-8'],
  ['windows-1252', 'windows-1252'],
  ['cp1252', 'windows-1252'],
  ['iso-8859-1', 'windows-1252'],
  ['latin1', 'windows-1252'],
  ['utf-16', 'utf-16'],
  ['utf-16le', 'utf-16le'],
  ['utf-16be', 'utf-16be'],
]);

export const ENCODING_NAMES = 'utf-8 (the default), windows-1252, iso-8859-1 (latin1), utf-16 (its byte-order mark says LE or BE), utf-16le or utf-16be';

/** The encoding an `--encoding` label names (any case), or undefined for one the import does not read. */
export function encodingOf(label: string): Encoding | undefined {
  return LABELS.get(label.trim().toLowerCase());
}

/** The file's bytes are not text in its encoding: where, and what to give instead. */
export class EncodingError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
    this.name = 'EncodingError';
  }
}

type Decoded = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/**
 * The characters of windows-1252's bytes 0x80–0x9F (WHATWG Encoding's index); the five
 * bytes it leaves undefined stand for the C1 control of the same number, as WHATWG says.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/** windows-1252 as a decoder: every byte is a character, so it never fails. */
const windows1252 = {
  decode: (bytes: Buffer) => bytes.toString('latin1').replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!),
};

const decoderOf = (encoding: Decoded) => (encoding === 'windows-1252' ? windows1252 : new TextDecoder(encoding, { fatal: true, ignoreBOM: true }));

const BOMS: readonly [Decoded, readonly number[]][] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

const bomOf = (head: Buffer) => BOMS.find(([, bytes]) => bytes.every((byte, i) => head[i] === byte));

/** How many bytes at the end of `bytes` begin a character the next chunk completes. */
function incompleteTail(bytes: Buffer, encoding: Decoded): number {
  if (encoding === 'windows-1252') return 0;
  if (encoding === 'utf-8') {
    for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
      const byte = bytes[i]!;
      if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look for its lead
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return i + length > bytes.length ? bytes.length - i : 0;
    }
    return 0;
  }
  const odd = bytes.length % 2;
  if (bytes.length - odd < 2) return odd;
  // A high surrogate waits for its low one.
  const unit = encoding === 'utf-16le' ? bytes.readUInt16LE(bytes.length - odd - 2) : bytes.readUInt16BE(bytes.length - odd - 2);
  return odd + (unit >= 0xd800 && unit <= 0xdbff ? 2 : 0);
}

/** Where the lines of `bytes` begin: after each line feed, which no encoding read here puts inside a character. */
function lineStarts(bytes: Buffer, encoding: Decoded): number[] {
  const starts = [0];
  const step = encoding.startsWith('utf-16') ? 2 : 1;
  const feed = encoding === 'utf-16le' ? 0 : step - 1; // the byte of a UTF-16 unit that holds 0x0A
  for (let i = 0; i + step <= bytes.length; i += step) {
    if (bytes[i + feed] === 0x0a && (step === 1 || bytes[i + 1 - feed] === 0)) starts.push(i + step);
  }
  return starts;
}

/** What the line is, read as windows-1252: shown so the operator sees whether that is the file's encoding. */
const asWindows1252 = (line: Buffer) => {
  const text = windows1252.decode(line).replace(/\r?\n$/, '');
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
};

/**
 * The error for `bytes`, which failed to decode and begin at line `firstLine`: the first line
 * that fails, and what to give; `valid` is how many bytes before that line decode.
 */
function encodingError(bytes: Buffer, encoding: Decoded, firstLine: number): { error: EncodingError; valid: number } {
  const decoder = decoderOf(encoding);
  const starts = lineStarts(bytes, encoding);
  let index = starts.findIndex((start, i) => {
    try {
      decoder.decode(bytes.subarray(start, starts[i + 1] ?? bytes.length));
      return false;
    } catch {
      return true;
    }
  });
  if (index === -1) index = starts.length - 1; // the file ends inside a character
  const line = firstLine + index;
  const valid = starts[index]!;
  const bad = bytes.subarray(valid, starts[index + 1] ?? bytes.length);
  const error = (message: string) => ({ error: new EncodingError(line, message), valid });
  if (encoding !== 'utf-8') return error(`line ${line} is not valid ${encoding} text: give the --encoding the file was saved in (see --help)`);
  // Text saved as UTF-16 without a byte-order mark has a zero byte in every other place.
  const zeros = bad.filter((byte) => byte === 0).length;
  if (zeros * 3 >= bad.length) return error(`line ${line} is not valid UTF-8 (it holds zero bytes, as UTF-16 text does): give --encoding utf-16le (or utf-16be)`);
  return error(
    `line ${line} is not valid UTF-8; read as windows-1252 it says ${asWindows1252(bad)}: if that is right, give --encoding windows-1252 (what Excel's "CSV (Comma delimited)" writes), else the --encoding the file was saved in (see --help)`,
  );
}

/**
 * The text of `bytes`, chunk by chunk. `asked` is `--encoding` (undefined: not given);
 * `note` hears what was assumed (a UTF-16 byte-order mark read without `--encoding`).
 */
export async function* decodedText(bytes: AsyncIterable<Buffer>, asked: Encoding | undefined, note: (line: string) => void = () => {}): AsyncGenerator<string> {
  let encoding: Decoded | undefined;
  let decoder: { decode(bytes: Buffer): string } | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let line = 1;
  /** The text of `chunk`; when it holds a bad line, the text of the lines before it, and the error. */
  const decode = (chunk: Buffer): { text: string; error?: EncodingError } => {
    let text: string;
    let failure: ReturnType<typeof encodingError> | undefined;
    try {
      text = decoder!.decode(chunk);
    } catch {
      failure = encodingError(chunk, encoding!, line);
      text = decoder!.decode(chunk.subarray(0, failure.valid));
    }
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) line += 1;
    return failure === undefined ? { text } : { text, error: failure.error };
  };
  /** The lines of a chunk up to a bad one are read, as a pipe delivers them; then the bad one stops the text. */
  function* decoded(chunk: Buffer): Generator<string> {
    const { text, error } = decode(chunk);
    if (text !== '') yield text;
    if (error !== undefined) throw error;
  }
  for await (const chunk of bytes) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (encoding === undefined) {
      if (pending.length < 3) continue; // the byte-order mark is read whole
      ({ encoding, rest: pending } = chosenEncoding(pending, asked, note));
      decoder = decoderOf(encoding);
    }
    const tail = incompleteTail(pending, encoding);
    const whole = pending.subarray(0, pending.length - tail);
    pending = Buffer.from(pending.subarray(pending.length - tail));
    if (whole.length > 0) yield* decoded(whole);
  }
  if (encoding === undefined) {
    if (pending.length === 0) return;
    ({ encoding, rest: pending } = chosenEncoding(pending, asked, note));
    decoder = decoderOf(encoding);
  }
  if (pending.length > 0) yield* decoded(pending);
}

/** The encoding of a file that begins with `head`, and its bytes after the byte-order mark. */
function chosenEncoding(head: Buffer, asked: Encoding | undefined, note: (line: string) => void): { encoding: Decoded; rest: Buffer } {
  const bom = bomOf(head);
  const rest = bom === undefined ? head : head.subarray(bom[1].length);
  if (bom === undefined) {
    if (asked === 'utf-16') note('no byte-order mark: the file is read as utf-16le (give --encoding utf-16be if it is big-endian)');
    return { encoding: asked === undefined ? 'utf-8' : asked === 'utf-16' ? 'utf-16le' : asked, rest };
  }
  const [found] = bom;
  if (asked === undefined) {
    if (found !== 'utf-8') note(`the file begins with a ${found.toUpperCase()} byte-order mark: it is read as ${found}`);
    return { encoding: found, rest };
  }
  if (asked === found || (asked === 'utf-16' && found !== 'utf-8')) return { encoding: found, rest };
  throw new EncodingError(1, `the file begins with a ${found.toUpperCase()} byte-order mark, but --encoding ${asked} was given: give --encoding ${found}, or none`);
}
