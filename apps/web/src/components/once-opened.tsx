import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders a drawer from the first time it is opened on: its lazily imported code loads then, not with the
 * page, and once there it stays mounted so closing it still plays its animation.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
