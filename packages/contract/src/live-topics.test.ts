import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Static } from 'typebox';
import { Value } from 'typebox/value';
import { mapDestination, type DeviceMarker, type MapTopicMessage } from './devices.ts';
import { emergencyDestination, type EmergencyTopicMessage } from './emergency.ts';
import { LIVE_TOPICS, type LiveTopicName } from './live-topics.ts';
import { ROLLOUT_TOPIC, type Rollout } from './platform.ts';
import { USER_TOPICS, userDestination, type Destination, type UserTopicMessages } from './realtime.ts';

type MessageOf<Name extends LiveTopicName> = Static<(typeof LIVE_TOPICS)[Name]['message']>;
type Carried<D> = D extends Destination<infer Message> ? Message : never;

const matches = (pattern: string, destination: string) => new RegExp(`^${pattern.replace(/\{\w+\}/g, '[^/]+')}$`).test(destination);

describe('the live topic table', () => {
  it('says, for every topic, the type its destination builder carries', () => {
    expectTypeOf<MessageOf<'map'>>().toEqualTypeOf<MapTopicMessage>();
    expectTypeOf<Carried<ReturnType<typeof mapDestination>>>().toEqualTypeOf<MapTopicMessage>();
    expectTypeOf<MessageOf<'emergency'>>().toEqualTypeOf<EmergencyTopicMessage>();
    expectTypeOf<Carried<ReturnType<typeof emergencyDestination>>>().toEqualTypeOf<EmergencyTopicMessage>();
    expectTypeOf<MessageOf<'firmwareRollouts'>>().toEqualTypeOf<Rollout>();
    expectTypeOf<Carried<typeof ROLLOUT_TOPIC>>().toEqualTypeOf<Rollout>();
    expectTypeOf<MessageOf<'defective'>>().toEqualTypeOf<UserTopicMessages['defective']>();
    expectTypeOf<MessageOf<'global_message_notice'>>().toEqualTypeOf<UserTopicMessages['global_message_notice']>();
    expectTypeOf<MessageOf<'gateway_status'>>().toEqualTypeOf<UserTopicMessages['gateway_status']>();
    expectTypeOf<MessageOf<'alarms'>>().toEqualTypeOf<UserTopicMessages['alarms']>();
    expectTypeOf<Carried<ReturnType<typeof userDestination<'alarms'>>>>().toEqualTypeOf<UserTopicMessages['alarms']>();
  });

  it('has a pattern for every destination the builders make, and one topic per pattern', () => {
    const built = [
      mapDestination('12'),
      emergencyDestination('12'),
      ROLLOUT_TOPIC,
      ...USER_TOPICS.map((topic) => userDestination(topic, '7')),
    ];
    for (const destination of built) {
      const topics = Object.values(LIVE_TOPICS).filter((topic) => matches(topic.pattern, destination));
      expect(topics, destination).toHaveLength(1);
    }
    expect(Object.keys(LIVE_TOPICS)).toHaveLength(built.length);
  });

  it("checks a message's shape, so a payload that drifted from the contract is caught", () => {
    const marker: DeviceMarker = { id: '5', name: 'Lamp', type: 1, status: '', display: 'off', manual: false, x: 0.5, y: null };
    expect(Value.Check(LIVE_TOPICS.map.message, marker)).toBe(true);
    expect(Value.Check(LIVE_TOPICS.map.message, { stored: ['5'] })).toBe(true);
    expect(Value.Check(LIVE_TOPICS.map.message, { ...marker, display: 'glowing' })).toBe(false);
    expect(Value.Check(LIVE_TOPICS.alarms.message, { userId: 7 })).toBe(false);
  });
});
