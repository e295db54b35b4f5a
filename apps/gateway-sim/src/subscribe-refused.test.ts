import { downTopic } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';

/** The down channel the broker refuses (0x80) the first time each gateway asks for it, as NATS refused some under load. */
let refusing: 'cmd' | 'ack' = 'cmd';
/** How often each refused channel's topic was asked for. */
const asked = new Map<string, number>();
const rig = gatewaysOnTestCloud(
  'A4C13A0F',
  {},
  {
    refuseSubscription: (topic) => {
      if (!topic.endsWith(`/down/${refusing}`)) return false;
      asked.set(topic, (asked.get(topic) ?? 0) + 1);
      return asked.get(topic) === 1;
    },
  },
);

describe('a subscription the broker refuses', () => {
  it('is asked for again, so the gateway receives its commands', async () => {
    refusing = 'cmd';
    const gateway = await rig.startGateway();
    const commands = downTopic(gateway.mac, 'cmd');
    await poll(() => (asked.get(commands) ?? 0) >= 2, 'the command topic asked for again', 3000);
    const reply = await rig.cloud.call(gateway.mac, 'gateway.identify', { durationS: 1 });
    expect(reply).toMatchObject({ ok: true });
    expect(gateway.executions.size).toBe(1);
  });

  it('holds the online state until down/ack is granted, so the answer to it arrives and the replies go', async () => {
    refusing = 'ack';
    const gateway = await rig.startGateway();
    // The cloud answers an online state once; sent before down/ack existed, that answer reached nobody and the
    // gateway kept everything it made (replies too) waiting for it.
    expect(asked.get(downTopic(gateway.mac, 'ack'))).toBe(2);
    const reply = await rig.cloud.call(gateway.mac, 'gateway.identify', { durationS: 1 });
    expect(reply).toMatchObject({ ok: true });
    const onlineStates = rig.cloud.up.filter((m) => m.mac === gateway.mac && m.channel === 'state');
    expect(onlineStates).toHaveLength(1);
  });
});
