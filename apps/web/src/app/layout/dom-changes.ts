import { useEffect } from 'react';

/**
 * Runs `update` on the document at most once a frame while the page changes: tables render, rows arrive, text
 * changes, the window is resized. For fixes that must follow whatever antd renders on every page.
 */
export function useOnDomChange(update: (root: Document) => void, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    let frame: number | undefined;
    const schedule = () => {
      if (frame !== undefined) return;
      frame = requestAnimationFrame(() => {
        frame = undefined;
        update(document);
      });
    };
    schedule();
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener('resize', schedule);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [update, enabled]);
}
