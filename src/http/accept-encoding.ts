/**
 * Accept-Encoding with its `*` spelled out, for the compressor (compression.ts):
 * `*` stands for every coding the field does not name (RFC 9110 §12.5.3), so
 * `gzip;q=0, *` refuses gzip and accepts br. @fastify/compress reads `*` as
 * gzip whatever else the field says, which would send gzip to a client that
 * refused it by name; with the codings named, its own q-value ranking decides.
 */

/** The codings the service produces. */
const CODINGS = ['gzip', 'br'] as const;

export function spellOutWildcard(header: string): string {
  const members = header.split(',').map((member) => member.trim()).filter((member) => member !== '');
  const named = new Set<string>();
  const kept: string[] = [];
  let wildcard: string | undefined;
  for (const member of members) {
    const [coding = '', ...parameters] = member.split(';');
    const name = coding.trim().toLowerCase();
    if (name === '*') {
      // The first `*` counts; its parameters (the q-value) go to every coding it stands for.
      wildcard ??= parameters.length > 0 ? `;${parameters.join(';')}` : '';
      continue;
    }
    named.add(name);
    kept.push(member);
  }
  if (wildcard === undefined) return header;
  for (const coding of CODINGS) if (!named.has(coding)) kept.push(`${coding}${wildcard}`);
  return kept.join(', ');
}
