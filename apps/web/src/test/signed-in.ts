import { afterEach, beforeEach, vi } from 'vitest';
import { session } from '../api/session.ts';

/**
 * For a test file that talks to a stubbed `fetch`: every test runs signed in (a fixed token), and the stubbed
 * globals and spies are undone after each one.
 */
export function signedInWithStubbedFetch(): void {
  beforeEach(() => void vi.spyOn(session, 'token').mockReturnValue('t0k'));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
