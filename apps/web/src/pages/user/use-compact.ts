import { useSyncExternalStore } from 'react';

/** Below this window height the login shell is compact (spec section 2). */
export const COMPACT_BELOW_PX = 768;

export function isCompactHeight(height: number): boolean {
  return height < COMPACT_BELOW_PX;
}

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

export function useCompact(): boolean {
  return useSyncExternalStore(subscribe, () => isCompactHeight(window.innerHeight));
}
