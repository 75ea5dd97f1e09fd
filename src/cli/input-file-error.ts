/**
 * A file the command was given cannot be read: one line for the operator
 * (`users.jsonl: does not exist`), exit code 1, never a stack.
 */
export class InputFileError extends Error {
  constructor(readonly path: string, why: string) {
    super(`${path}: ${why}`);
    this.name = 'InputFileError';
  }
}

const WORDS: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'cannot be read (permission denied)',
  EPERM: 'cannot be read (operation not permitted)',
  EISDIR: 'is a directory',
  ENOTDIR: 'does not exist (a part of the path is not a directory)',
  ELOOP: 'cannot be opened (too many symbolic links)',
  EIO: 'cannot be read (input/output error)',
};

/** A file-system error in words, without the stack or the syscall's own wording. */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: string })?.code ?? '';
  const words = WORDS[code];
  if (words) return words;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `cannot be read further (${message})`;
}
