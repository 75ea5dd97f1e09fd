/**
 * Polls `read` until `ready` holds: for what arrives a moment after a write (the relay's
 * messages, a stream's events). No time limit but the test's: given the test's `signal`,
 * it stops when the test times out. Never an assertion about time.
 */
export async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean, signal?: AbortSignal): Promise<T> {
  for (;;) {
    signal?.throwIfAborted();
    const value = await read();
    if (ready(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
