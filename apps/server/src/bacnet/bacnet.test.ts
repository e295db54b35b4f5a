import {
  ApplicationTag,
  EngineeringUnits,
  ErrorCode,
  EventState,
  EventType,
  ObjectType,
  PropertyIdentifier as P,
  TimeStamp,
  type BACNetObjectID,
} from '@bacnet-js/client';
import {
  deviceEndpoints,
  groupEndpoints,
  mapDestination,
  newSceneFields,
  OPERATE_AUTH,
  percentToLevel,
  sceneEndpoints,
  type GatewayDevice,
  type GroupView,
} from '@lumigrid/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, bacnetObjects, users } from '../db/schema/index.ts';
import { SERVICE_DATABASES, endpointCaller } from '../test/harness.ts';
import { data, type GatewayRig } from '../test/gateways.fixtures.ts';
import { poll } from '../test/poll.ts';
import { objectNames, readValues, recipientOf, startTestClient, writeRecipientList, type TestClient } from './bacnet-client.fixtures.ts';
import { startBacnetSite } from './bacnet-site.fixtures.ts';
import { NOTIFICATION_CLASS } from './events.ts';
import { NO_SCENE, STATE_TEXTS } from './object-model.ts';

const DEVICE_INSTANCE = 260_401;
const MAIL = 'bms@example.com';

/**
 * A building management system over real BACnet/IP on 127.0.0.1: a client of the same stack discovers the
 * project's device, reads what the simulated gateway reports, and dims a group through the platform's command
 * path, which the simulated lights carry out.
 */
describe.each(SERVICE_DATABASES)('the BACnet/IP interface (%s)', (kind) => {
  let rig: GatewayRig;
  let client: TestClient;
  let port: number;
  let token: string;
  let projectId: string;
  let map: { id: string; name: string };
  let lights: GatewayDevice[];
  let group: GroupView;
  const send = endpointCaller(
    () => rig.h.app,
    () => token,
  );
  const sim = () => rig.fleet.gateways[0]!;
  const receiver = () => ({ address: `127.0.0.1:${port}` });
  const objectOf = async (name: string): Promise<BACNetObjectID> => {
    const found = (await objectNames(client, port, DEVICE_INSTANCE)).find((o) => o.name === name);
    if (!found) throw new Error(`no object named ${name}`);
    return found.id;
  };

  beforeAll(async () => {
    ({ rig, token, projectId, map, lights, group, port } = await startBacnetSite(kind, {
      mail: MAIL,
      deviceInstance: DEVICE_INSTANCE,
      serving: { freshMs: 50, reconcileMs: 600_000 },
    }));
    client = await startTestClient();
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await rig?.close();
  });

  it('answers Who-Is with I-Am and lists its objects under the platform names', async () => {
    const heard: number[] = [];
    client.on('iAm', (content) => heard.push(content.payload.deviceId));
    client.whoIs(receiver(), { lowLimit: DEVICE_INSTANCE, highLimit: DEVICE_INSTANCE });
    await poll(() => heard.includes(DEVICE_INSTANCE), 'I-Am');
    // A Who-Is for other instances goes unanswered.
    client.whoIs(receiver(), { lowLimit: 1, highLimit: 10 });
    const names = await objectNames(client, port, DEVICE_INSTANCE);
    expect(heard).toEqual([DEVICE_INSTANCE]);
    expect(names).toContainEqual({ id: { type: ObjectType.DEVICE, instance: DEVICE_INSTANCE }, name: expect.stringContaining('Lumigrid') });
    expect(names).toContainEqual({ id: expect.objectContaining({ type: ObjectType.LIGHTING_OUTPUT }), name: `${map.name}/Open office` });
    expect(names).toContainEqual({ id: expect.objectContaining({ type: ObjectType.ANALOG_INPUT }), name: `${map.name} total power` });
  });

  it("reads a light's level and state once the simulated gateway reports it", async () => {
    const light = lights[0]!;
    const level = await objectOf(`${map.name}/${light.name}`);
    const state = await objectOf(`${map.name}/${light.name} state`);
    await data(send(deviceEndpoints.control, { body: { id: light.id, action: { op: 'brightness', percent: 40 } } }));
    await poll(async () => (await readValues(client, port, level, P.PRESENT_VALUE))[0] === 40, 'the light at 40 % over BACnet');
    expect(await readValues(client, port, state, P.PRESENT_VALUE)).toEqual([STATE_TEXTS.indexOf('on') + 1]);
    expect(await readValues(client, port, state, P.STATE_TEXT)).toEqual([...STATE_TEXTS]);
    await data(send(deviceEndpoints.control, { body: { id: light.id, action: { op: 'onOff', on: false } } }));
    await poll(
      async () => (await readValues(client, port, state, P.PRESENT_VALUE))[0] === STATE_TEXTS.indexOf('off') + 1,
      'off over BACnet',
    );
    expect(await readValues(client, port, level, P.PRESENT_VALUE)).toEqual([0]);
  });

  it("dims a group written at priority 8, through the platform's command path, and relinquishes it", async () => {
    const output = await objectOf(`${map.name}/Open office`);
    await client.writeProperty(receiver(), output, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 60 }], { priority: 8 });
    const levels = () => lights.map((d) => sim().devices.get(d.addr)!.state);
    await poll(() => levels().every((s) => s.on && s.level === percentToLevel(60)), 'every member at 60 %');
    expect(await readValues(client, port, output, P.PRESENT_VALUE)).toEqual([60]);
    expect(await readValues(client, port, output, P.CURRENT_COMMAND_PRIORITY)).toEqual([8]);
    expect(await readValues(client, port, output, P.PRIORITY_ARRAY, 8)).toEqual([60]);
    // The platform's reports follow: Tracking_Value is what the lights do.
    await poll(async () => (await readValues(client, port, output, P.TRACKING_VALUE))[0] === 60, 'the group tracking 60 %');

    // The audit trail has it as the bound user's group command, through BACnet.
    await rig.h.app.audit.writer.flush();
    const [entry] = await rig.h.database.db.select().from(auditTrail).where(eq(auditTrail.via, 'bacnet'));
    expect(entry).toMatchObject({
      endpoint: 'groups.control',
      code: 0,
      ip: '127.0.0.1',
      projectId: BigInt(projectId),
      request: { body: { id: group.id, action: { op: 'brightness', percent: 60 } } },
    });

    await client.writeProperty(receiver(), output, P.PRESENT_VALUE, [{ type: ApplicationTag.NULL, value: null }], { priority: 8 });
    expect(await readValues(client, port, output, P.CURRENT_COMMAND_PRIORITY)).toEqual([null]);
    // Relinquished, the lights keep what they were set to.
    expect(levels().every((s) => s.level === percentToLevel(60))).toBe(true);
  });

  it("notifies a COV subscriber of a light's level when the simulated gateway reports a change", async () => {
    const light = lights[1]!;
    const output = await objectOf(`${map.name}/${light.name}`);
    const levels: unknown[] = [];
    const listen = (content: {
      payload: { monitoredObjectId: BACNetObjectID; values: Array<{ property: { id: number }; value: Array<{ value: unknown }> }> };
    }) => {
      if (content.payload.monitoredObjectId.instance !== output.instance || content.payload.monitoredObjectId.type !== output.type) return;
      levels.push(content.payload.values.find((v) => v.property.id === P.PRESENT_VALUE)?.value[0]?.value);
    };
    client.on('covNotifyUnconfirmed', listen);
    try {
      await client.subscribeCov(receiver(), output, 7, false, false, 300);
      await poll(() => levels.length === 1, 'the first notification');
      await data(send(deviceEndpoints.control, { body: { id: light.id, action: { op: 'brightness', percent: 25 } } }));
      await poll(() => levels.includes(25), 'the reported level notified');
    } finally {
      client.off('covNotifyUnconfirmed', listen);
      await client.subscribeCov(receiver(), output, 7, true, false, 0);
    }
  });

  it("serves a metered light's energy in kWh, from its meter as the gateway reports it", async () => {
    const light = lights[0]!;
    const name = `${map.name}/${light.name} energy`;
    sim().devices.get(light.addr)!.energyWh = 2500;
    sim().reportTelemetry();
    await poll(async () => (await objectNames(client, port, DEVICE_INSTANCE)).some((o) => o.name === name), 'the energy object');
    const energy = await objectOf(name);
    expect(energy.type).toBe(ObjectType.ANALOG_INPUT);
    await poll(async () => (await readValues(client, port, energy, P.PRESENT_VALUE))[0] === 2.5, '2.5 kWh over BACnet');
    expect(await readValues(client, port, energy, P.UNITS)).toEqual([EngineeringUnits.KILOWATT_HOURS]);
    expect(await readValues(client, port, await objectOf(`${map.name}/${light.name} power`), P.UNITS)).toEqual([EngineeringUnits.WATTS]);
  });

  it('refuses a level out of range and a write to what is not commandable', async () => {
    const output = await objectOf(`${map.name}/Open office`);
    await expect(
      client.writeProperty(receiver(), output, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 150 }], { priority: 8 }),
    ).rejects.toThrow(`Code:${ErrorCode.VALUE_OUT_OF_RANGE}`);
    const power = await objectOf(`${map.name} total power`);
    await expect(
      client.writeProperty(receiver(), power, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 1 }], { priority: 8 }),
    ).rejects.toThrow(`Code:${ErrorCode.WRITE_ACCESS_DENIED}`);
  });

  it('carries the authority of the bound user: one who may only view is refused, and the refusal is in the audit trail', async () => {
    const output = await objectOf(`${map.name}/Open office`);
    const bound = eq(users.account, MAIL);
    await rig.h.database.db.update(users).set({ operateAuth: OPERATE_AUTH.viewOnly }).where(bound);
    try {
      await expect(
        client.writeProperty(receiver(), output, P.PRESENT_VALUE, [{ type: ApplicationTag.REAL, value: 10 }], { priority: 8 }),
      ).rejects.toThrow(`Code:${ErrorCode.WRITE_ACCESS_DENIED}`);
    } finally {
      await rig.h.database.db.update(users).set({ operateAuth: OPERATE_AUTH.owner }).where(bound);
    }
    expect(lights.every((d) => sim().devices.get(d.addr)!.state.level !== percentToLevel(10))).toBe(true);
    await rig.h.app.audit.writer.flush();
    const entries = await rig.h.database.db.select().from(auditTrail).where(eq(auditTrail.via, 'bacnet'));
    expect(entries.at(-1)).toMatchObject({ endpoint: 'groups.control', code: 110003 });
  });

  it('keeps an instance when its group is renamed', async () => {
    const before = await rig.h.database.db
      .select()
      .from(bacnetObjects)
      .where(eq(bacnetObjects.sourceId, BigInt(group.id)));
    await data(send(groupEndpoints.update, { body: { id: group.id, name: 'Team room' } }));
    await poll(
      async () => (await objectNames(client, port, DEVICE_INSTANCE)).some((o) => o.name === `${map.name}/Team room`),
      'the new name',
    );
    const renamed = await objectOf(`${map.name}/Team room`);
    expect(before.filter((r) => r.source === 'group').map((r) => r.instance)).toEqual([renamed.instance]);
  });

  it("notifies the recipients a BMS wrote into Recipient_List of a light's fault and of its end", async () => {
    const light = lights.at(-1)!;
    const state = await objectOf(`${map.name}/${light.name} state`);
    const heard: Array<{ object: BACNetObjectID; from: number; to: number; type: number; processId: number }> = [];
    const listen = (content: {
      payload: { eventObjectId: BACNetObjectID; fromState: number; toState: number; eventType: number; processId: number };
    }) => {
      const p = content.payload;
      if (p.eventObjectId.type === state.type && p.eventObjectId.instance === state.instance)
        heard.push({ object: p.eventObjectId, from: p.fromState, to: p.toState, type: p.eventType, processId: p.processId });
    };
    client.on('eventNotify', listen);
    const notificationClass = { type: ObjectType.NOTIFICATION_CLASS, instance: NOTIFICATION_CLASS };
    try {
      await writeRecipientList(client, port, [recipientOf(client, 41)]);
      const list = await readValues(client, port, notificationClass, P.RECIPIENT_LIST);
      expect(list).toHaveLength(7);
      expect(list[4]).toBe(41);
      expect(await readValues(client, port, state, P.EVENT_STATE)).toEqual([EventState.NORMAL]);
      expect(await readValues(client, port, state, P.NOTIFICATION_CLASS)).toEqual([NOTIFICATION_CLASS]);

      sim().raiseFault(light.addr, 3);
      await poll(() => heard.length === 1, 'the to-fault notification');
      expect(heard[0]).toEqual({
        object: state,
        from: EventState.NORMAL,
        to: EventState.FAULT,
        type: EventType.CHANGE_OF_STATE,
        processId: 41,
      });
      expect(await readValues(client, port, state, P.EVENT_STATE)).toEqual([EventState.FAULT]);
      // To-fault waits for an acknowledgement; the BMS gives it.
      expect(await readValues(client, port, state, P.ACKED_TRANSITIONS)).toEqual([{ bitsUsed: 3, value: [0b101] }]);
      const stamp = { type: TimeStamp.SEQUENCE_NUMBER, value: 0 };
      await client.acknowledgeAlarm(receiver(), state, EventState.FAULT, 'BMS operator', stamp, stamp);
      expect(await readValues(client, port, state, P.ACKED_TRANSITIONS)).toEqual([{ bitsUsed: 3, value: [0b111] }]);

      sim().clearFault(light.addr);
      await poll(() => heard.length === 2, 'the to-normal notification');
      expect(heard[1]).toMatchObject({ from: EventState.FAULT, to: EventState.NORMAL });
      expect(await readValues(client, port, state, P.EVENT_STATE)).toEqual([EventState.NORMAL]);
    } finally {
      client.off('eventNotify', listen);
      sim().clearFault(light.addr);
      await writeRecipientList(client, port, []);
    }
  });

  it('keeps a fault it was told of when a load reads the store before the fault is written', async () => {
    const light = lights[0]!;
    const state = await objectOf(`${map.name}/${light.name} state`);
    const eventState = async () => (await readValues(client, port, state, P.EVENT_STATE))[0];
    const server = rig.h.app.bacnet.server!;
    await server.refresh();
    expect(await eventState()).toBe(EventState.NORMAL);
    const marker = (await data(send(deviceEndpoints.markers, { query: { mapId: map.id } }))).find((m) => m.id === light.id)!;
    // A report's marker goes out before its state is written: here the write never comes, the store says normal.
    rig.h.app.realtime.publish(mapDestination(map.id), { ...marker, display: 'failure' });
    await poll(async () => (await eventState()) === EventState.FAULT, 'the fault heard');
    await server.refresh();
    expect(await eventState()).toBe(EventState.FAULT);
    // Once the state is said to be stored, the store is the truth again.
    rig.h.app.realtime.publish(mapDestination(map.id), { stored: [light.id] });
    await poll(async () => {
      await server.refresh();
      return (await eventState()) === EventState.NORMAL;
    }, 'normal again, from the store');
  });

  it("runs a scene written to the scene selector through the platform's scene service, and reads the last run", async () => {
    const members = lights.map((d) => ({ type: 'device' as const, id: d.id, action: { on: true, percent: 30 } }));
    const saved = await data(
      send(sceneEndpoints.add, { body: { ...newSceneFields(projectId, 'manual', 'Cleaning'), steps: [{ members, holdS: 0 }] } }),
    );
    await poll(async () => (await objectNames(client, port, DEVICE_INSTANCE)).some((o) => o.name === 'Scenes'), 'the scene selector');
    const selector = await objectOf('Scenes');
    expect(selector.type).toBe(ObjectType.MULTI_STATE_OUTPUT);
    await poll(async () => (await readValues(client, port, selector, P.STATE_TEXT)).includes('Cleaning'), 'the scene as a state');
    const states = await readValues(client, port, selector, P.STATE_TEXT);
    const cleaning = states.indexOf('Cleaning') + 1;
    expect(states[0]).toBe(NO_SCENE);

    // The first state runs nothing.
    await expect(
      client.writeProperty(receiver(), selector, P.PRESENT_VALUE, [{ type: ApplicationTag.UNSIGNED_INTEGER, value: 1 }], { priority: 8 }),
    ).rejects.toThrow(`Code:${ErrorCode.VALUE_OUT_OF_RANGE}`);

    await client.writeProperty(receiver(), selector, P.PRESENT_VALUE, [{ type: ApplicationTag.UNSIGNED_INTEGER, value: cleaning }], {
      priority: 8,
    });
    const levels = () => lights.map((d) => sim().devices.get(d.addr)!.state);
    expect(levels().every((s) => s.on && s.level === percentToLevel(30))).toBe(true);
    expect(await readValues(client, port, selector, P.PRESENT_VALUE)).toEqual([cleaning]);

    await rig.h.app.audit.writer.flush();
    const entries = await rig.h.database.db.select().from(auditTrail).where(eq(auditTrail.via, 'bacnet'));
    expect(entries.at(-1)).toMatchObject({
      endpoint: 'scenes.execute',
      code: 0,
      ip: '127.0.0.1',
      request: { params: { id: saved.scene.id } },
    });
  });
});
