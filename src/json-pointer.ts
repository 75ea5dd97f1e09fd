/** RFC 6901: one reference token of a JSON pointer (`~` → `~0`, `/` → `~1`). */
export function pointerToken(name: string | number): string {
  return String(name).replace(/~/g, '~0').replace(/\//g, '~1');
}
