import { downTopic } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';

/** How often each command topic was asked for; the first time it is refused (0x80), as NATS refused some under load. */
const asked = new Map<string, number>();
const rig = gatewaysOnTestCloud(
  'A4C13A0F',
  {},
  {
    refuseSubscription: (topic) => {
      if (!topic.endsWith('/down/cmd')) return false;
      asked.set(topic, (asked.get(topic) ?? 0) + 1);
      return asked.get(topic) === 1;
    },
  },
);

describe('a subscription the broker refuses', () => {
  it('is asked for again, so the gateway receives its commands', async () => {
    const gateway = await rig.startGateway();
    const commands = downTopic(gateway.mac, 'cmd');
    await poll(() => (asked.get(commands) ?? 0) >= 2, 'the command topic asked for again', 3000);
    const reply = await rig.cloud.call(gateway.mac, 'gateway.identify', { durationS: 1 });
    expect(reply).toMatchObject({ ok: true });
    expect(gateway.executions.size).toBe(1);
  });
});
