import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../http/auth.ts';
import { addUserTopics, createDestinationRouter } from './destinations.ts';

const auth = (userId: bigint): AuthContext => ({ userId, tenantId: userId, userAuth: 2, operateAuth: 0, lang: 'en', sessionId: 1n });

describe('destination router', () => {
  const sut = createDestinationRouter();
  addUserTopics(sut);
  // A per-map topic like the devices domain's: the check asks whoever knows the maps.
  const seen: Array<Record<string, string>> = [];
  sut.add({
    pattern: '/topic/map/{mapId}',
    allow: async (caller, params) => {
      seen.push(params);
      return caller.userId === 7n && params.mapId === '12';
    },
  });

  it.each([
    ['/topic/defective/7', 'allowed'],
    ['/topic/global_message_notice/7', 'allowed'],
    ['/topic/defective/8', 'forbidden'],
    ['/topic/global_message_notice/07', 'forbidden'],
    ['/topic/defective/7/extra', 'unknown'],
    ['/topic/defective/', 'unknown'],
    ['/topic/defective', 'unknown'],
    ['/topic/other/7', 'unknown'],
    ['/queue/defective/7', 'unknown'],
    ['/topic/defective/*', 'forbidden'],
    ['/topic/defective/..', 'forbidden'],
    ['/topic/defective/%37', 'forbidden'],
    ['/topic/map/12', 'allowed'],
    ['/topic/map/13', 'forbidden'],
  ])('user 7 subscribing to %s: %s', async (destination, verdict) => {
    expect(await sut.check(auth(7n), destination)).toBe(verdict);
  });

  it('hands the placeholders to the permission check', async () => {
    seen.length = 0;
    await sut.check(auth(9n), '/topic/map/12');
    expect(seen).toEqual([{ mapId: '12' }]);
  });

  it('never reaches a check with a value that is not a plain segment', async () => {
    seen.length = 0;
    expect(await sut.check(auth(7n), '/topic/map/a b')).toBe('forbidden');
    expect(seen).toEqual([]);
  });
});
