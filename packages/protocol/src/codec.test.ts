import { describe, expect, it } from 'vitest';
import {
  COMMAND_NAMES,
  MAX_PAYLOAD_BYTES,
  ProtocolError,
  commandChannel,
  decodeDown,
  decodeResult,
  decodeUp,
  downTopic,
  encodeCommand,
  encodeOnlineAck,
  encodeUp,
  seededRandom,
  upTopic,
  type CommandMessage,
  type GatewayInfo,
  type UpMessages,
} from './index.ts';

const MAC = 'A4C1380B229F';
const TS = Date.parse('2026-11-23T08:00:00Z');

const info: GatewayInfo = {
  mac: MAC,
  ip: '192.168.1.20',
  networkAddress: '0000',
  panId: '1A2B',
  channel: 15,
  versions: { gateway: '3.2.1', zigbee: '1.4.0', zigbee2: '1.4.0', zigbee3: '3.0.2', wisun: '2.1.0', plc: '1.0.7' },
  largeGroupNumber: 65000,
  superGateway: false,
  configVersion: 0,
};

const upExamples: { [C in keyof UpMessages]: UpMessages[C] } = {
  state: { state: 'online', info, ts: TS },
  report: {
    ts: TS,
    full: true,
    devices: [{ addr: '00124B0001A2B3C4', kind: 'light-cct', online: true, on: true, level: 200, cct: 4000, fault: 0 }],
  },
  telemetry: { ts: TS, samples: [{ addr: '00124B0001A2B3C4', power: 12.5, energyWh: 1034.2 }] },
  event: { type: 'firmware', ts: TS, update: 'c-1', target: 'gateway', stage: 'downloading', progress: 40 },
  reply: { id: 'c-1', ok: true, result: { time: TS }, ts: TS },
};

/** One valid example of every command, so each schema is exercised. */
const commandExamples: CommandMessage[] = [
  { id: 'c1', name: 'gateway.info', params: {}, ts: TS },
  { id: 'c2', name: 'gateway.identify', params: { durationS: 10 }, ts: TS },
  { id: 'c3', name: 'gateway.restart', params: {}, ts: TS, expiresAt: TS + 10_000 },
  { id: 'c4', name: 'time.get', params: {}, ts: TS },
  { id: 'c5', name: 'time.set', params: { time: TS, timezone: 'Asia/Tokyo' }, ts: TS },
  { id: 'c6', name: 'params.get', params: {}, ts: TS },
  { id: 'c7', name: 'params.set', params: { params: { longitude: 139.69, latitude: 35.68, reportIntervalS: 60 } }, ts: TS },
  { id: 'c8', name: 'devices.list', params: {}, ts: TS },
  { id: 'c9', name: 'devices.permitJoin', params: { durationS: 60 }, ts: TS },
  { id: 'c10', name: 'devices.report', params: {}, ts: TS },
  { id: 'c11', name: 'device.control', params: { addr: '00124B0001A2B3C4', action: { on: true, level: 254 } }, ts: TS },
  { id: 'c11b', name: 'device.identify', params: { addr: '00124B0001A2B3C4', durationS: 5 }, ts: TS },
  { id: 'c12', name: 'group.control', params: { group: 3, action: { on: false } }, ts: TS },
  { id: 'c12b', name: 'devices.control', params: { addrs: ['00124B0001A2B3C4', '00124B0001A2B3C8'], action: { on: false } }, ts: TS },
  {
    id: 'c13',
    name: 'firmware.update',
    params: { target: 'gateway', version: '3.3.0', url: 'https://updates.example/gw-3.3.0.bin' },
    ts: TS,
  },
  { id: 'c14', name: 'bridges.list', params: {}, ts: TS },
  {
    id: 'c16',
    name: 'emergency.start',
    params: { addrs: ['00124B0001A2B3C7'], test: 'life', durationS: 5400, allowWhileCharging: false },
    ts: TS,
  },
  { id: 'c17', name: 'emergency.stop', params: { addrs: ['00124B0001A2B3C7'] }, ts: TS },
  { id: 'c17b', name: 'emergency.status', params: { addrs: ['00124B0001A2B3C7'] }, ts: TS },
  { id: 'c18', name: 'sensors.mode', params: { mode: 'linkage' }, ts: TS },
  { id: 'c19', name: 'sensors.microwave', params: { params: { holdS: 120, luxAbove: 300, level: 254, standbyLevel: 25 } }, ts: TS },
  { id: 'c20', name: 'device.params.get', params: { addr: '00124B0001A2B3C5' }, ts: TS },
  { id: 'c20b', name: 'panel.lockAccounts', params: { addr: '00124B0001A2B3C6' }, ts: TS },
  {
    id: 'c21',
    name: 'device.params.set',
    params: { addr: '00124B0001A2B3C5', params: { holdTime: 120, sensorMode: 'linkage', stairsMode: false, lampCounts: [1, 2] } },
    ts: TS,
  },
  { id: 'c22', name: 'device.sensor', params: { addr: '00124B0001A2B3C5', on: false }, ts: TS },
  { id: 'c23', name: 'device.remove', params: { addr: '00124B0001A2B3C4' }, ts: TS },
  { id: 'c24', name: 'device.setKind', params: { addrs: ['00124B0001A2B3C4'], kind: 'light-cct' }, ts: TS },
  { id: 'c25', name: 'devices.broadcast', params: { action: { on: false } }, ts: TS },
  { id: 'c26', name: 'scene.run', params: { scene: 3 }, ts: TS },
  { id: 'c27', name: 'devices.auto', params: { addrs: ['00124B0001A2B3C4'] }, ts: TS },
  {
    id: 'c15',
    name: 'config.apply',
    params: {
      version: 7,
      config: {
        groups: [{ id: 1, name: 'Hall', devices: ['00124B0001A2B3C4'] }],
        scenes: [{ id: 1, name: 'Evening', steps: [{ target: { group: 1 }, action: { on: true, level: 120 } }] }],
        schedules: [{ id: 1, scene: 1, days: [1, 2, 3, 4, 5], at: 'sunset', offsetMin: -15 }],
        linkages: [
          { sensor: '00124B0001A2B3C5', targets: [{ group: 1 }], onDetect: { on: true, level: 254 }, onClear: { level: 40 }, holdS: 120 },
        ],
        holidays: ['2026-12-25'],
        panelKeys: [{ panel: '00124B0001A2B3C6', key: 1, scene: 1 }],
        overrideMin: 30,
      },
    },
    ts: TS,
  },
];

describe('up messages', () => {
  it.each(Object.entries(upExamples))('round-trips %s', (channel, message) => {
    const text = encodeUp(channel as keyof UpMessages, message as never);
    const decoded = decodeUp(upTopic(MAC, channel as keyof UpMessages), new TextEncoder().encode(text));
    expect(decoded).toEqual({ ok: true, value: { mac: MAC, channel, message } });
  });

  it('accepts the last will, which has no timestamp', () => {
    expect(decodeUp(upTopic(MAC, 'state'), '{"state":"offline","reason":"lost"}').ok).toBe(true);
  });

  it('carries device addresses upper case only, so both ends compare them as plain strings', () => {
    const report = (addr: string) => JSON.stringify({ ...upExamples.report, devices: [{ ...upExamples.report.devices[0]!, addr }] });
    expect(decodeUp(upTopic(MAC, 'report'), report('00124B0001A2B3C4')).ok).toBe(true);
    const lower = decodeUp(upTopic(MAC, 'report'), report('00124b0001a2b3c4'));
    expect(!lower.ok && lower.error.code).toBe('invalid');
  });

  it('drops a message whose text holds a control character, which no database would store', () => {
    const reply = (message: string) => JSON.stringify({ id: 'x', ok: false, error: { code: 'failed', message } });
    expect(decodeUp(upTopic(MAC, 'reply'), reply('lamp 3 is offline')).ok).toBe(true);
    const decoded = decodeUp(upTopic(MAC, 'reply'), reply('lamp\u0000 3'));
    expect(!decoded.ok && decoded.error.code).toBe('invalid');
  });

  it('accepts a failed reply with an error code', () => {
    expect(decodeUp(upTopic(MAC, 'reply'), JSON.stringify({ id: 'x', ok: false, error: { code: 'expired' } })).ok).toBe(true);
  });
});

describe('commands', () => {
  it('has an example for every command', () => {
    expect(commandExamples.map((c) => c.name).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it.each(commandExamples.map((c) => [c.name, c] as const))('round-trips %s on its own channel', (_name, command) => {
    const channel = commandChannel(command.name);
    const decoded = decodeDown(downTopic(MAC, channel), encodeCommand(command));
    expect(decoded).toEqual({ ok: true, value: { mac: MAC, channel, message: command } });
  });

  it('refuses a command on the other down channel', () => {
    const wrong = decodeDown(downTopic(MAC, 'config'), encodeCommand(commandExamples[0]!));
    expect(!wrong.ok && wrong.error.code).toBe('invalid');
  });

  it('checks a result against the command it answers', () => {
    expect(decodeResult('time.get', { time: TS }).ok).toBe(true);
    expect(decodeResult('gateway.info', info).ok).toBe(true);
    const bad = decodeResult('gateway.info', { ...info, channel: 'fifteen' });
    expect(!bad.ok && bad.error.message).toMatch(/channel/);
  });

  it('refuses to encode an invalid command', () => {
    expect(() => encodeCommand({ id: 'c1', name: 'sensors.microwave', params: { params: { holdS: 125 } }, ts: TS })).toThrow(ProtocolError);
    expect(() => encodeCommand({ id: 'c1', name: 'sensors.mode', params: { mode: 'auto' as 'linkage' }, ts: TS })).toThrow(ProtocolError);
    expect(() => encodeCommand({ id: 'c1', name: 'devices.permitJoin', params: { durationS: 9999 }, ts: TS })).toThrow(ProtocolError);
    expect(() => encodeCommand({ id: 'not an id!', name: 'gateway.info', params: {}, ts: TS })).toThrow(ProtocolError);
  });
});

describe('the answer to an online state', () => {
  it('travels on down/ack with the ts of the state it answers, and nothing else', () => {
    const ack = decodeDown(downTopic(MAC, 'ack'), encodeOnlineAck({ state: TS, ts: TS + 5 }));
    expect(ack).toEqual({ ok: true, value: { mac: MAC, channel: 'ack', message: { state: TS, ts: TS + 5 } } });
    expect(decodeDown(downTopic(MAC, 'ack'), encodeOnlineAck({ ts: TS })).ok).toBe(true);
    const extra = decodeDown(downTopic(MAC, 'ack'), JSON.stringify({ state: TS, ts: TS, flush: true }));
    expect(!extra.ok && extra.error.code).toBe('invalid');
    // A command is not an answer, and an answer is not a command.
    expect(decodeDown(downTopic(MAC, 'ack'), encodeCommand({ id: 'c1', name: 'gateway.info', params: {}, ts: TS })).ok).toBe(false);
    expect(decodeDown(downTopic(MAC, 'cmd'), encodeOnlineAck({ ts: TS })).ok).toBe(false);
    expect(() => encodeOnlineAck({ ts: -1 })).toThrow(ProtocolError);
  });
});

describe('rejections', () => {
  const topic = upTopic(MAC, 'report');
  const cases: Array<[string, string, Uint8Array | string, string]> = [
    ['a foreign topic', 'lg/v1/+/up/report', '{}', 'unknown_topic'],
    ['a down topic on the up decoder', downTopic(MAC, 'cmd'), '{}', 'unknown_topic'],
    ['an oversized payload', topic, new Uint8Array(MAX_PAYLOAD_BYTES + 1), 'too_large'],
    ['invalid UTF-8', topic, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'not_json'],
    ['text that is not JSON', topic, 'online', 'not_json'],
    ['JSON null', topic, 'null', 'invalid'],
    ['an empty batch', topic, JSON.stringify({ ts: TS, full: false, devices: [] }), 'invalid'],
    ['an unknown field', topic, JSON.stringify({ ...upExamples.report, extra: 1 }), 'invalid'],
    [
      'a brightness out of range',
      topic,
      JSON.stringify({ ts: TS, full: false, devices: [{ addr: '01', kind: 'light-single', online: true, level: 300, fault: 0 }] }),
      'invalid',
    ],
    [
      'an unknown device kind',
      topic,
      JSON.stringify({ ts: TS, full: false, devices: [{ addr: '01', kind: 'toaster', online: true, fault: 0 }] }),
      'invalid',
    ],
    ['a state without info', upTopic(MAC, 'state'), '{"state":"online"}', 'invalid'],
    ['a reply without id', upTopic(MAC, 'reply'), '{"ok":true,"result":{}}', 'invalid'],
    ['an online state naming another gateway', upTopic('A4C1380B2200', 'state'), JSON.stringify({ state: 'online', info }), 'invalid'],
    [
      'a prototype-polluting event',
      upTopic(MAC, 'event'),
      '{"__proto__":{"x":1},"type":"fault","ts":1,"addr":"01","code":1,"raised":true}',
      'invalid',
    ],
  ];

  it.each(cases)('refuses %s with a typed error and no throw', (_what, t, payload, code) => {
    const decoded = decodeUp(t, payload);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.error).toBeInstanceOf(ProtocolError);
      expect(decoded.error.code).toBe(code);
    }
  });

  it('refuses unknown commands and bad params on the gateway side', () => {
    const unknown = decodeDown(downTopic(MAC, 'cmd'), JSON.stringify({ id: 'a', name: 'gateway.selfDestruct', params: {}, ts: TS }));
    expect(!unknown.ok && unknown.error.code).toBe('unknown_command');
    const badParams = decodeDown(downTopic(MAC, 'cmd'), JSON.stringify({ id: 'a', name: 'time.set', params: { time: -1 }, ts: TS }));
    expect(!badParams.ok && badParams.error.code).toBe('invalid');
  });

  it('survives random bytes', () => {
    // Seeded: a failing input is the same on every run.
    const random = seededRandom(0x1f2e3d4c);
    for (let i = 0; i < 200; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 64)).map(() => Math.floor(random() * 256));
      expect(() => decodeUp(topic, bytes)).not.toThrow();
      expect(() => decodeDown(downTopic(MAC, 'cmd'), bytes)).not.toThrow();
    }
  });
});
