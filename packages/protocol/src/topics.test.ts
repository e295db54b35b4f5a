import { describe, expect, it } from 'vitest';
import { brokerNodes, downTopic, normaliseMac, parseTopic, topicOfNatsSubject, upNatsSubject, upTopic } from './index.ts';

describe('gateway topics', () => {
  it('normalises MACs written with separators', () => {
    expect(normaliseMac('a4:c1:38:0b:22:9f')).toBe('A4C1380B229F');
    expect(normaliseMac('A4-C1-38-0B-22-9F')).toBe('A4C1380B229F');
    expect(normaliseMac('A4C1380B229')).toBeUndefined();
    expect(normaliseMac('G4C1380B229F')).toBeUndefined();
  });

  it('builds and parses topics in both directions', () => {
    expect(upTopic('A4C1380B229F', 'report')).toBe('lg/v1/A4C1380B229F/up/report');
    expect(parseTopic(downTopic('A4C1380B229F', 'cmd'))).toEqual({ mac: 'A4C1380B229F', direction: 'down', channel: 'cmd' });
    expect(parseTopic('lg/v1/A4C1380B229F/up/state')).toEqual({ mac: 'A4C1380B229F', direction: 'up', channel: 'state' });
  });

  it.each(['lg/v1/A4C1380B229F/up/cmd', 'lg/v2/A4C1380B229F/up/state', 'lg/v1/+/up/state', 'lg/v1/#', 'lg/v1/A4C1380B229F/up/state/x', ''])(
    'rejects %s',
    (topic) => expect(parseTopic(topic)).toBeUndefined(),
  );

  it('maps up channels to the NATS subjects of a NATS broker and back', () => {
    expect(upNatsSubject('report')).toBe('lg.v1.*.up.report');
    expect(topicOfNatsSubject('lg.v1.A4C1380B229F.up.report')).toBe(upTopic('A4C1380B229F', 'report'));
  });
});

describe('broker address lists', () => {
  it('takes one address as it is, for mqtt.js to read', () => {
    expect(brokerNodes('mqtt://u:p@broker:1884')).toEqual({ url: 'mqtt://u:p@broker:1884', servers: undefined });
    expect(brokerNodes('wss://broker/mqtt')).toEqual({ url: 'wss://broker/mqtt', servers: undefined });
  });

  it('turns a list into nodes a client rotates through, credentials from the first', () => {
    expect(brokerNodes('mqtt://u:p@a:1884, mqtts://b,mqtt://c')).toEqual({
      url: 'mqtt://u:p@a:1884',
      servers: [
        { host: 'a', port: 1884, protocol: 'mqtt' },
        { host: 'b', port: 8883, protocol: 'mqtts' },
        { host: 'c', port: 1883, protocol: 'mqtt' },
      ],
    });
  });

  it.each(['', ' , ', 'mqtt://a:1883,nats://b:4222', 'ws://a/mqtt,mqtt://b', 'mqtt://a,b:1883'])('refuses "%s"', (list) =>
    expect(() => brokerNodes(list)).toThrow(),
  );
});
