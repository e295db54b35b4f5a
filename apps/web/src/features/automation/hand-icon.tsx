import type { CSSProperties } from 'react';

/** A raised hand: "switched by hand" (manual override), in the badge's colour unless told otherwise. */
export function HandIcon({ style }: { style?: CSSProperties }) {
  return (
    <svg viewBox="0 0 16 16" width="1em" height="1em" aria-hidden focusable="false" style={{ verticalAlign: '-0.125em', ...style }}>
      <path
        fill="currentColor"
        d="M6 1.5a1 1 0 0 1 2 0V7h.5V2.5a1 1 0 0 1 2 0V7h.5V3.5a1 1 0 0 1 2 0v6c0 3-2 5-4.6 5-1.9 0-3-.8-4-2.4L2.2 9.3a1 1 0 0 1 1.7-1L5.5 10V3a1 1 0 0 1 .5-.9z"
      />
    </svg>
  );
}
