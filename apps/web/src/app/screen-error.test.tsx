import { lazy } from 'react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { LazyPage } from './lazy-page.tsx';
import { ScreenError, isScreenLoadFailure } from './screen-error.tsx';

/** Chromium's words when a screen's chunk does not arrive. */
const CHUNK_LOST = 'Failed to fetch dynamically imported module: http://127.0.0.1/assets/audit-page-X1.js';

/** A route whose screen loads lazily with `load`, under the router's error boundary as the app's routes are. */
function appWith(load: () => Promise<{ default: () => React.ReactNode }>, reload: () => void) {
  const Screen = lazy(load);
  return createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <p>menu</p>
            <Outlet />
          </>
        ),
        children: [
          {
            path: 'audit',
            element: (
              <LazyPage>
                <Screen />
              </LazyPage>
            ),
            errorElement: <ScreenError reload={reload} />,
          },
        ],
      },
    ],
    { initialEntries: ['/audit'] },
  );
}

describe('a screen that fails', () => {
  afterEach(() => vi.restoreAllMocks());

  it('tells a chunk that did not arrive from a screen that broke', () => {
    expect(isScreenLoadFailure(new TypeError(CHUNK_LOST))).toBe(true);
    expect(isScreenLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isScreenLoadFailure(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isScreenLoadFailure('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('says its code did not arrive, in the user\u2019s language, and reloads on request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    const { user } = await renderInApp(<RouterProvider router={appWith(() => Promise.reject(new TypeError(CHUNK_LOST)), reload)} />, {
      lang: 'ja',
    });
    expect(await screen.findByRole('heading', { name: 'このページを読み込めませんでした' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('再読み込みしてください');
    expect(reload).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says the screen stopped working when it loaded but threw while drawing, and keeps the menu', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'map')");
    };
    await renderInApp(<RouterProvider router={appWith(async () => ({ default: Broken }), vi.fn())} />);
    expect(await screen.findByRole('heading', { name: 'This page stopped working' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByText('menu')).toBeTruthy();
  });
});
