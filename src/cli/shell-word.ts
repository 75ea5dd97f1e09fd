/** `text` as one POSIX shell word, so a printed command or option can be pasted as it is printed. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_/.,:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
