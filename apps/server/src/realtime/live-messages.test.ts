import { describe, expect, it } from 'vitest';
import { emergencyDestination, mapDestination, userDestination } from '@lumigrid/contract';
import { createLiveMessageCheck } from './live-messages.ts';

describe('the check of published messages against the live topics', () => {
  const check = createLiveMessageCheck();

  it('passes the messages each topic carries', () => {
    expect(check(mapDestination('3'), { removed: ['4', '5'] })).toBeUndefined();
    expect(check(userDestination('alarms', '9'), { userId: '9' })).toBeUndefined();
  });

  it('names the destination and the topic of a message its schema refuses, and the field where it can', () => {
    expect(check(mapDestination('3'), { removed: [4] })).toMatch(/^\/topic\/map\/3 \(map\): /);
    expect(check(emergencyDestination('3'), { kind: 'light' })).toMatch(/^\/topic\/emergency\/3 \(emergency\)/);
    expect(check(userDestination('defective', '9'), { userId: '9', id: '1', name: 'Lamp', code: 100 })).toMatch(/\/code/);
  });

  it('refuses a destination no topic has', () => {
    expect(check('/topic/elsewhere/3', {})).toMatch(/no live topic/);
  });
});
