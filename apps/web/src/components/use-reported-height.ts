import { useEffect, useRef, type RefObject } from 'react';

/**
 * Tells `onHeight` the element's height in whole pixels whenever it changes (a phone's plan gives up that much
 * of the screen to the bar under it). Attach the returned ref to the element.
 */
export function useReportedHeight<T extends HTMLElement>(onHeight: ((px: number) => void) | undefined): RefObject<T | null> {
  const node = useRef<T>(null);
  const heightTo = useRef(onHeight);
  useEffect(() => {
    heightTo.current = onHeight;
  });
  useEffect(() => {
    const element = node.current;
    if (!element) return;
    const observer = new ResizeObserver(() => heightTo.current?.(Math.ceil(element.getBoundingClientRect().height)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return node;
}
