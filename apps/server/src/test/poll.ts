/**
 * Polls a condition (sync or async) until it holds, then returns; after `timeoutMs` it fails naming what it
 * waited for (`what` as a function is read at the failure, so it can tell what was last seen). The one way
 * tests wait for something another process or the event loop will do. The default bound is generous (just
 * under a test's 30 s): it costs nothing when the condition comes, and a machine busy with other suites is
 * not a broken one.
 */
export async function poll(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  { timeoutMs = 25_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((wake) => setTimeout(wake, everyMs));
  }
}
