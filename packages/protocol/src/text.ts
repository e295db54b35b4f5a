/**
 * Control characters no text field may carry, on the wire or in the API: C0 controls other than tab, line
 * feed and carriage return, and DEL. PostgreSQL refuses NUL in text outright, and none belongs in a name.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Deeper JSON than any message or request needs; walking it is bounded by this. */
export const MAX_JSON_DEPTH = 32;

/** The first problem in a parsed JSON value (its strings and keys at any depth), or undefined when it is clean. */
export function unsafeTextIn(value: unknown): 'control character' | 'too deeply nested' | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (CONTROL.test(v)) return 'control character';
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_JSON_DEPTH) return 'too deeply nested';
      for (const [key, item] of Object.entries(v)) {
        if (CONTROL.test(key)) return 'control character';
        stack.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return undefined;
}
