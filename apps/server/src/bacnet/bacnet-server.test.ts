import {
  ASN1_ARRAY_ALL,
  ApplicationTag,
  DeviceStatus,
  ErrorClass,
  ConfirmedServiceChoice,
  ErrorCode,
  EventState,
  ObjectType,
  PropertyIdentifier as P,
  type BACNetAddress,
} from '@bacnet-js/client';
import { DEVICE_TYPE_CODES } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll } from '../test/poll.ts';
import { freeUdpPort, readValues, recipientOf, startTestClient, writeRecipientList, type TestClient } from './bacnet-client.fixtures.ts';
import { BacnetWriteError, startBacnetServer, type BacnetServer, type BacnetSource } from './bacnet-server.ts';
import { EVENT_PRIORITIES, NOTIFICATION_CLASS } from './events.ts';
import { describeObjects, instanceKey, withInstances, type BacnetObject } from './object-model.ts';
import { propertiesOf } from './properties.ts';

const DEVICE_INSTANCE = 77;

/** The objects of map "Floor" with the dimmer "Desk" showing `display`, numbered in order; `withRoom` adds its group. */
function floorObjects(display: 'offline' | 'working', withRoom: boolean) {
  const drafts = describeObjects({
    maps: [{ id: '1', name: 'Floor' }],
    devices: [
      {
        id: '10',
        name: 'Desk',
        type: DEVICE_TYPE_CODES['light-dimmer'],
        mapId: '1',
        status: '',
        display,
        powerW: null,
        energyKwh: null,
      },
    ],
    groups: withRoom ? [{ id: '5', name: 'Room', mapId: '1', deviceIds: ['10'], display: 'offline' }] : [],
  });
  return withInstances(drafts, new Map(drafts.map((d, i) => [instanceKey(d), i + 1])));
}

const OBJECTS = floorObjects('offline', true);
const GROUP = OBJECTS.find((o) => o.source === 'group')!;
const groupId = { type: GROUP.objectType, instance: GROUP.instance };

/** A source that serves fixed objects and keeps the commands it is given; `refuse` makes it refuse them. */
function fakeSource() {
  const commands: Array<{ object: BacnetObject; value: number; from: string }> = [];
  const source: BacnetSource & { commands: typeof commands; refuse: boolean } = {
    commands,
    refuse: false,
    load: async () => ({ deviceName: 'Lumigrid Test', objects: OBJECTS }),
    async command(object, value, from) {
      if (source.refuse) throw new BacnetWriteError({ errorClass: ErrorClass.COMMUNICATION, errorCode: ErrorCode.TIMEOUT }, 'no reply');
      commands.push({ object, value, from });
    },
  };
  return source;
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

describe('the BACnet/IP device over UDP', () => {
  let client: TestClient;
  const servers: BacnetServer[] = [];
  const writable = fakeSource();
  const readOnly = fakeSource();
  let writablePort: number;
  let readOnlyPort: number;

  beforeAll(async () => {
    for (const [source, readOnlyMode] of [
      [writable, false],
      [readOnly, true],
    ] as const) {
      const port = await freeUdpPort();
      servers.push(
        await startBacnetServer({
          port,
          interface: '127.0.0.1',
          deviceInstance: DEVICE_INSTANCE,
          readOnly: readOnlyMode,
          version: '1',
          source,
          logger: silent,
        }),
      );
      if (readOnlyMode) readOnlyPort = port;
      else writablePort = port;
    }
    client = await startTestClient();
  });
  afterAll(() => {
    client?.close();
    for (const server of servers) server.close();
  });

  const at = (port: number) => ({ address: `127.0.0.1:${port}` });

  it('refuses every write when read-only, and commands nothing', async () => {
    await expect(
      client.writeProperty(at(readOnlyPort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 50 }], { priority: 8 }),
    ).rejects.toThrow(`Code:${ErrorCode.WRITE_ACCESS_DENIED}`);
    expect(readOnly.commands).toEqual([]);
    expect(await readValues(client, readOnlyPort, { type: ObjectType.DEVICE, instance: DEVICE_INSTANCE }, P.SYSTEM_STATUS)).toEqual([
      DeviceStatus.OPERATIONAL_READ_ONLY,
    ]);
    expect(await readValues(client, readOnlyPort, groupId, P.PRESENT_VALUE)).toEqual([0]);
  });

  it('answers ReadPropertyMultiple for ALL with every property of the type, and the device by its wildcard instance', async () => {
    const answer = await client.readPropertyMultiple(at(writablePort), [
      { objectId: groupId, properties: [{ id: P.ALL, index: ASN1_ARRAY_ALL }] },
      { objectId: { type: ObjectType.DEVICE, instance: 4_194_303 }, properties: [{ id: P.OBJECT_IDENTIFIER, index: ASN1_ARRAY_ALL }] },
    ]);
    expect(answer.values[0]!.values.map((v) => v.id)).toEqual([...propertiesOf(ObjectType.LIGHTING_OUTPUT)]);
    expect(answer.values[1]!.values[0]!.value[0]!.value).toEqual({ type: ObjectType.DEVICE, instance: DEVICE_INSTANCE });
    // An offline group is in fault.
    const flags = answer.values[0]!.values.find((v) => v.id === P.STATUS_FLAGS)!.value[0]!.value as { value: number[] };
    expect(flags.value[0]! & 0b10).toBe(0b10);
  });

  it('answers unknown-object for an instance it does not have', async () => {
    await expect(readValues(client, writablePort, { type: ObjectType.LIGHTING_OUTPUT, instance: 9999 }, P.PRESENT_VALUE)).rejects.toThrow(
      `Code:${ErrorCode.UNKNOWN_OBJECT}`,
    );
  });

  it('answers a refused command with its error and leaves the priority array as it was', async () => {
    writable.refuse = true;
    try {
      await expect(
        client.writeProperty(at(writablePort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 70 }], { priority: 5 }),
      ).rejects.toThrow(`Code:${ErrorCode.TIMEOUT}`);
    } finally {
      writable.refuse = false;
    }
    expect(await readValues(client, writablePort, groupId, P.CURRENT_COMMAND_PRIORITY)).toEqual([null]);
    await client.writeProperty(at(writablePort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 70.4 }], { priority: 5 });
    expect(writable.commands).toEqual([expect.objectContaining({ value: 70, from: expect.stringContaining('127.0.0.1') })]);
    // Priority 6 is the minimum on/off time's own (clause 19.2.3): nobody writes it.
    await expect(
      client.writeProperty(at(writablePort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 70 }], { priority: 6 }),
    ).rejects.toThrow(`Code:${ErrorCode.WRITE_ACCESS_DENIED}`);
  });

  it('notifies a COV subscriber at once, on a write, and no more once cancelled', async () => {
    const heard: Array<{ processId: number; value: unknown }> = [];
    const listen = (content: {
      payload: { subscriberProcessId: number; values: Array<{ property: { id: number }; value: Array<{ value: unknown }> }> };
    }) => {
      const pv = content.payload.values.find((v) => v.property.id === P.PRESENT_VALUE);
      heard.push({ processId: content.payload.subscriberProcessId, value: pv?.value[0]?.value });
    };
    client.on('covNotifyUnconfirmed', listen);
    try {
      await client.subscribeCov(at(writablePort), groupId, 41, false, false, 60);
      await poll(() => heard.length === 1, 'the first notification');
      expect(heard[0]).toEqual({ processId: 41, value: 70 });
      await client.writeProperty(at(writablePort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 30 }], { priority: 4 });
      await poll(() => heard.some((h) => h.value === 30), 'the written value');
      await client.subscribeCov(at(writablePort), groupId, 41, true, false, 0);
      expect(servers[0]!.subscriptions()).toBe(0);
      await client.writeProperty(at(writablePort), groupId, P.PRESENT_VALUE, [{ type: ApplicationTag.NULL, value: null }], { priority: 4 });
      expect(heard.map((h) => h.value)).toEqual([70, 30]);
    } finally {
      client.off('covNotifyUnconfirmed', listen);
    }
  });

  it('refuses a COV subscription to an object it does not have', async () => {
    await expect(
      client.subscribeCov(at(writablePort), { type: ObjectType.ANALOG_INPUT, instance: 9999 }, 1, false, false, 60),
    ).rejects.toThrow(`Code:${ErrorCode.UNKNOWN_OBJECT}`);
  });

  it('fails to start on a port another device holds, and says why', async () => {
    await expect(
      startBacnetServer({
        port: writablePort,
        interface: '127.0.0.1',
        deviceInstance: 5,
        readOnly: false,
        version: '1',
        source: writable,
        logger: silent,
      }),
    ).rejects.toThrow(/EADDRINUSE/);
  });

  it('announces itself with an I-Am when it starts serving', async () => {
    const heard: number[] = [];
    const listen = (content: { payload: { deviceId: number } }) => heard.push(content.payload.deviceId);
    client.on('iAm', listen);
    const server = await startBacnetServer({
      port: await freeUdpPort(),
      interface: '127.0.0.1',
      deviceInstance: 78,
      readOnly: false,
      version: '1',
      source: writable,
      logger: silent,
      announceTo: at(client.port),
    });
    try {
      await poll(() => heard.includes(78), 'the I-Am');
    } finally {
      client.off('iAm', listen);
      server.close();
    }
  });

  it('serves a Notification Class whose Recipient_List takes only destinations', async () => {
    const notificationClass = { type: ObjectType.NOTIFICATION_CLASS, instance: NOTIFICATION_CLASS };
    expect(await readValues(client, writablePort, notificationClass, P.PRIORITY)).toEqual([...EVENT_PRIORITIES]);
    expect(await readValues(client, writablePort, { type: ObjectType.DEVICE, instance: DEVICE_INSTANCE }, P.OBJECT_LIST)).toContainEqual(
      notificationClass,
    );
    await expect(
      client.writeProperty(at(writablePort), notificationClass, P.RECIPIENT_LIST, [{ type: ApplicationTag.REAL, value: 1 }], {}),
    ).rejects.toThrow(`Code:${ErrorCode.INVALID_DATA_TYPE}`);
    expect(await readValues(client, writablePort, notificationClass, P.RECIPIENT_LIST)).toEqual([]);
  });

  it('sends a confirmed event notification to a recipient that asks for one when a device goes offline and back', async () => {
    let display: 'offline' | 'working' = 'working';
    const objectsNow = () => floorObjects(display, false);
    const state = objectsNow().find((o) => o.objectType === ObjectType.MULTI_STATE_VALUE)!;
    const port = await freeUdpPort();
    const server = await startBacnetServer({
      port,
      interface: '127.0.0.1',
      deviceInstance: 79,
      readOnly: false,
      version: '1',
      source: { ...writable, load: async () => ({ deviceName: 'Lumigrid Events', objects: objectsNow() }) },
      logger: silent,
      freshMs: 20,
      reconcileMs: 20,
    });
    const heard: number[] = [];
    const listen = (content: { header?: { sender: BACNetAddress }; invokeId?: number; payload: { toState: number } }) => {
      heard.push(content.payload.toState);
      if (content.invokeId !== undefined && content.header)
        client.simpleAckResponse(content.header.sender, ConfirmedServiceChoice.CONFIRMED_EVENT_NOTIFICATION, content.invokeId);
    };
    client.on('eventNotify', listen);
    try {
      await writeRecipientList(client, port, [recipientOf(client, 5, true)]);
      const stateId = { type: state.objectType, instance: state.instance };
      expect(await readValues(client, port, stateId, P.EVENT_STATE)).toEqual([EventState.NORMAL]);
      display = 'offline';
      await poll(() => heard.length === 1, 'the to-fault notification');
      expect(await readValues(client, port, stateId, P.EVENT_STATE)).toEqual([EventState.FAULT]);
      display = 'working';
      await poll(() => heard.length === 2, 'the to-normal notification');
      expect(heard).toEqual([EventState.FAULT, EventState.NORMAL]);
    } finally {
      client.off('eventNotify', listen);
      server.close();
    }
  });
});
