import { describe, expect, it } from 'vitest';
import { endsSession, failureDestination, interpretResponse, parseRetryAfter } from './envelope.ts';

const envelope = (code: number, msg = '', data: unknown = null) => ({ code, msg, data });

describe('interpretResponse (spec section 7, handling of answers)', () => {
  it('passes the data of a success through', () => {
    expect(interpretResponse(200, envelope(0, 'ok', { id: '9007199254740993' }))).toEqual({
      ok: true,
      data: { id: '9007199254740993' },
    });
  });

  it.each([
    [401, envelope(250004, 'Please sign in again'), 'relogin'],
    [200, envelope(250004, 'Please sign in again'), 'relogin'],
    [401, envelope(100001, 'x'), 'unauthorised'],
    [401, undefined, 'unauthorised'],
    [403, envelope(100009, 'Session expired'), 'sessionEnded'],
    [429, envelope(250015, 'Too many'), 'rateLimited'],
    [404, undefined, 'notFound'],
    [502, '<html>bad gateway</html>', 'http'],
    [400, envelope(250003, 'Wrong password'), 'business'],
    [500, envelope(0, 'ok'), 'http'],
  ])('status %i with %j is %s', (status, body, kind) => {
    const outcome = interpretResponse(status, body);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.action.kind).toBe(kind);
  });

  it('keeps the business code and the localised message', () => {
    expect(interpretResponse(400, envelope(250003, 'パスワードが違います'))).toEqual({
      ok: false,
      action: { kind: 'business', code: 250003, message: 'パスワードが違います' },
    });
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('failureDestination and endsSession', () => {
  it('sends an ended session to sign in, but never moves someone already on the /user pages', () => {
    expect(failureDestination({ kind: 'relogin' }, '/home', '/user/tel-login')).toBe('/user/login');
    expect(failureDestination({ kind: 'unauthorised' }, '/system/center', '/user/tel-login')).toBe('/user/tel-login');
    expect(failureDestination({ kind: 'sessionEnded' }, '/home', '/user/login')).toBe('/user/login');
    expect(failureDestination({ kind: 'unauthorised' }, '/user/login', '/user/login')).toBeUndefined();
    expect(failureDestination({ kind: 'business', code: 250003 }, '/home', '/user/login')).toBeUndefined();
  });

  it('drops the token only when the server ended the session', () => {
    expect(endsSession({ kind: 'relogin' })).toBe(true);
    expect(endsSession({ kind: 'sessionEnded' })).toBe(true);
    expect(endsSession({ kind: 'business', code: 1 })).toBe(false);
    expect(endsSession({ kind: 'network' })).toBe(false);
  });
});
