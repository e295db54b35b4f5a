import {
  DEVICE_TYPE_CODES as C,
  OPERATE_AUTH,
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  libraryEndpoints,
  libraryTypesOf,
  parseStatus,
  type Device,
  type GatewayDevice,
} from '@lumigrid/contract';
import { DALI_LIMITS, daliShortAddress } from '@lumigrid/protocol';
import { SIM_PART_NUMBERS, type SimGateway } from '@lumigrid/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiData, expectError, signUpByMail } from '../../test/harness.ts';
import { DATABASES_AND_BROKERS, buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { subAccount } from '../../test/projects.fixtures.ts';

const OWNER = 'library-devices@example.com';

describe.each(DATABASES_AND_BROKERS)(
  'library types, DALI and panel locks with a simulated gateway on %s over the %s broker',
  (kind, broker) => {
    let rig: GatewayRig;
    let token: string;
    let sim: SimGateway;
    let mapId: string;
    let gatewayId: string;
    let devices: GatewayDevice[];
    const as = (t = token) => ({ token: t });
    const byKind = (k: string) => devices.find((d) => d.kind === k)!;
    const listed = async (id: string): Promise<Device> =>
      (await apiData(rig.h.app, deviceEndpoints.list, { body: { gatewayId, pageSize: 200 } }, as())).list.find((d) => d.id === id)!;

    beforeAll(async () => {
      rig = await startGatewayRig(kind, { count: 1, broker });
      token = await signUpByMail(rig.h, OWNER);
      sim = rig.fleet.gateways[0]!;
      const built = await buildGatewayWithDevices(rig.h, token, {
        mac: sim.mac,
        place: (d) => ['dali', 'light-cct', 'panel-smart', 'panel-scene6'].includes(d.kind),
      });
      ({ mapId, devices } = built);
      gatewayId = built.gateway.id;
    }, 120_000);
    afterAll(async () => {
      await rig?.close();
    });

    it('imports a DALI light behind its DALI bridge at a short address', async () => {
      const bridge = byKind('bridge-dali');
      const dali = byKind('dali');
      expect(bridge.type).toBe(C['bridge-dali']);
      expect(dali).toMatchObject({ type: C.dali, bridgeId: bridge.id, model: SIM_PART_NUMBERS.dali });
      const short = daliShortAddress(dali.addr);
      expect(short).toBeGreaterThanOrEqual(DALI_LIMITS.shortAddress.min);
      expect(short).toBeLessThanOrEqual(DALI_LIMITS.shortAddress.max);
      expect(dali.addr.startsWith(bridge.addr.slice(-12))).toBe(true);
    });

    it('controls a DALI light and groups it with other lights', async () => {
      const dali = byKind('dali');
      const light = byKind('light-cct');
      await apiData(rig.h.app, deviceEndpoints.control, { body: { id: dali.id, action: { op: 'brightness', percent: 50 } } }, as());
      await poll(() => sim.devices.get(dali.addr)?.state.level === 127, 'the DALI light at half brightness');
      await poll(async () => (await listed(dali.id)).display === 'onPartial', 'the DALI light shown on at part load');

      const group = await apiData(
        rig.h.app,
        groupEndpoints.add,
        { body: { mapId, gatewayId, name: 'DALI and CCT', deviceIds: [dali.id, light.id] } },
        as(),
      );
      await apiData(rig.h.app, gatewayEndpoints.sync, { params: { id: gatewayId } }, as());
      await poll(() => sim.config.groups.some((g) => g.devices.includes(dali.addr)), 'the group in the gateway configuration');
      const result = await apiData(rig.h.app, groupEndpoints.control, { body: { id: group.id, action: { op: 'onOff', on: false } } }, as());
      expect(result.mode).toBe('group');
      await poll(() => sim.devices.get(dali.addr)?.state.on === false && sim.devices.get(light.addr)?.state.on === false, 'the group off');
    });

    it('keeps a DALI bus within its 16 DALI groups', async () => {
      const dali = byKind('dali');
      // The bus is in one group already (above); its light takes 15 more.
      for (let n = 2; n <= DALI_LIMITS.groups; n++) {
        await apiData(rig.h.app, groupEndpoints.add, { body: { mapId, gatewayId, name: `DALI ${n}`, deviceIds: [dali.id] } }, as());
      }
      // A second light joins the same bus: in no group yet, but its bus is full.
      const addr = sim.simulateJoin('dali');
      expect(daliShortAddress(addr)).toBe(1);
      await apiData(rig.h.app, gatewayEndpoints.importDevices, { params: { id: gatewayId } }, as());
      const second = (await apiData(rig.h.app, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId } }, as())).find(
        (d) => d.addr === addr,
      )!;
      await apiData(rig.h.app, deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: second.id, x: 0.9, y: 0.9 }] } }, as());
      expectError(
        await api(
          rig.h.app,
          groupEndpoints.add,
          { body: { mapId, gatewayId, name: 'DALI 17', deviceIds: [second.id] } },
          { token, lang: 'ja' },
        ),
        100603,
        'ja',
      );
    });

    it('reads who may unlock a panel, beside its locked flag', async () => {
      const locked = byKind('panel-smart');
      const open = byKind('panel-scene6');
      await poll(async () => (await listed(locked.id)).status !== '', 'the panel reported');
      const status = parseStatus(C['panel-smart'], (await listed(locked.id)).status);
      expect(status.ok && status.value.family === 'panel' && status.value.locked).toBe(true);

      const viewer = await subAccount(rig.h, OWNER, OPERATE_AUTH.viewOnly);
      const accounts = await apiData(rig.h.app, deviceEndpoints.panelLockAccounts, { body: { id: locked.id } }, as(viewer));
      expect(accounts).toEqual({
        id: locked.id,
        locked: true,
        accounts: [
          { slot: 1, account: expect.stringMatching(/^CARD-/), name: 'Facility manager' },
          { slot: 2, account: expect.stringMatching(/^PIN-/), name: 'Cleaning crew' },
        ],
      });
      expect((await apiData(rig.h.app, deviceEndpoints.panelLockAccounts, { body: { id: open.id } }, as())).locked).toBe(false);
      expectError(await api(rig.h.app, deviceEndpoints.panelLockAccounts, { body: { id: byKind('light-cct').id } }, as()), 100209);
    });

    it('matches devices to a library type by part number, shows their remaining life, and keeps a used type', async () => {
      const light = byKind('light-cct');
      const before = await listed(light.id);
      expect(before).toMatchObject({ libraryTypeName: null, remainingLifeHours: null });

      const type = await apiData(
        rig.h.app,
        libraryEndpoints.add,
        // Lower case on purpose: part numbers compare trimmed and upper-cased.
        {
          body: {
            name: 'Panel 60',
            type: C['light-cct'],
            initialPower: 40,
            lifespan: 50000,
            partNumber: SIM_PART_NUMBERS['light-cct'].toLowerCase(),
          },
        },
        as(),
      );
      expect(type.devices).toBe(1);
      const matched = await listed(light.id);
      expect(matched.libraryTypeName).toBe('Panel 60');
      expect(matched.remainingLifeHours).toBe(50000 - (matched.usedHours ?? 0));
      expect((await listed(byKind('light-rgb').id)).libraryTypeName).toBeNull();

      expectError(await api(rig.h.app, libraryEndpoints.remove, { query: { id: type.id } }, { token, lang: 'ja' }), 270006, 'ja');
      expect(libraryTypesOf(await apiData(rig.h.app, libraryEndpoints.typeTable, {}, as())).map((t) => t.name)).toEqual(['Panel 60']);

      // Once no device carries the part number, the type goes.
      await apiData(rig.h.app, deviceEndpoints.remove, { body: { ids: [light.id], fromGateway: false } }, as());
      expect(await apiData(rig.h.app, libraryEndpoints.remove, { query: { id: type.id } }, as())).toBeNull();
    });
  },
);
