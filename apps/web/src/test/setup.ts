import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import '../i18n/index.ts';

// jsdom lacks what antd's responsive parts and overlays measure with; the components only need them to exist.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// findBy* and waitFor wait for a condition: a second (the default) ran out for an antd form's validation while the
// unit stage shared the machine with the journeys.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
