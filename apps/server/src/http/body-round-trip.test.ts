import {
  gatewayEndpoints,
  groupEndpoints,
  mapEndpoints,
  projectEndpoints,
  sceneEndpoints,
  type EndpointSpec,
  type GatewayDevice,
  type GroupView,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { looseFields, type Schema } from '../test/body-fields.ts';
import { buildGatewayWithDevices, data, gatewayRigSuite } from '../test/gateways.fixtures.ts';
import { SERVICE_DATABASES, api } from '../test/harness.ts';

type Row = Record<string, unknown>;

/**
 * An endpoint whose answer is the entity it stored, with a body it accepts (a fresh one per call, so names
 * stay unique) and a second read of what was stored.
 */
interface EchoCase {
  endpoint: EndpointSpec & { body: Schema };
  /** `add` makes a new entity per call; `update` changes the same one, so an absent field keeps its value. */
  mode: 'add' | 'update';
  body(): Row;
  readBack(answer: Row): Promise<Row>;
}

describe.each(SERVICE_DATABASES)('null and absence stored and answered as sent on %s', (kind) => {
  let projectId: string;
  let mapId: string;
  let devices: GatewayDevice[];
  let gatewayId: string;
  const { h, sim, token } = gatewayRigSuite(kind, { count: 1 }, 'nulls@example.com');
  const send = <E extends EndpointSpec>(endpoint: E, input: unknown) => api(h().app, endpoint, input as never, { token: token() });
  let serial = 0;
  const unique = (name: string) => `${name} ${++serial}`;

  beforeAll(async () => {
    const built = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, place: () => true });
    ({ mapId, devices } = built);
    gatewayId = built.gateway.id;
    const tree = await data(send(projectEndpoints.tree, { params: { id: '0' } }));
    projectId = tree.projects.find((p) => p.isDefault)!.id;
  }, 120_000);

  const projectOf = async (id: unknown) => {
    const detail = await data(send(projectEndpoints.projectDetail, { params: { id } }));
    return detail.project as Row;
  };
  const buildingOf = async (answer: Row) => {
    const detail = await data(send(projectEndpoints.buildingDetail, { params: { id: answer.projectId, buildId: answer.id } }));
    return detail.build as unknown as Row;
  };
  const mapOf = async (answer: Row) =>
    (await data(send(mapEndpoints.getMap, { params: { id: answer.projectId, mapId: answer.id } }))) as Row;

  /**
   * Each optional or nullable field of the endpoint's body (from the table) that its answer carries: null is
   * answered and read back as null, and leaving it out keeps the stored value (update) or stores none (add).
   */
  async function roundTrip(c: EchoCase): Promise<string[]> {
    const wrong: string[] = [];
    const { fields } = looseFields(c.endpoint.body);
    const first = (await data(send(c.endpoint, { body: c.body() }))) as Row;
    for (const field of fields.filter((f) => f.path.length === 1)) {
      const key = String(field.path[0]);
      if (!(key in first)) continue;
      const where = `${c.endpoint.path} ${key}`;
      if (field.nullable) {
        const answer = (await data(send(c.endpoint, { body: { ...c.body(), [key]: null } }))) as Row;
        const stored = await c.readBack(answer);
        if (answer[key] !== null || stored[key] !== null) wrong.push(`${where}: null answered ${answer[key]}, read ${stored[key]}`);
      }
      if (field.optional) {
        const before = c.mode === 'update' ? ((await data(send(c.endpoint, { body: c.body() }))) as Row)[key] : null;
        const { [key]: _left, ...without } = c.body();
        const answer = (await data(send(c.endpoint, { body: without }))) as Row;
        const stored = await c.readBack(answer);
        if (c.mode === 'update' && (answer[key] !== before || stored[key] !== before))
          wrong.push(`${where}: absent changed ${before} to ${answer[key]}, read ${stored[key]}`);
        if (c.mode === 'add' && field.nullable && (answer[key] !== null || stored[key] !== null))
          wrong.push(`${where}: absent answered ${answer[key]}, read ${stored[key]}`);
      }
    }
    return wrong;
  }

  it('keeps a project without a position without one, and null clears a position', async () => {
    const place = { address: 'Quay 1', longitude: 174.77, latitude: -36.85, carbonFactor: 0.5 };
    const added = await data(send(projectEndpoints.addProject, { body: { name: unique('Harbour'), ...place } }));
    const cases: EchoCase[] = [
      {
        endpoint: projectEndpoints.addProject,
        mode: 'add',
        body: () => ({ name: unique('Pier'), ...place }),
        readBack: (a) => projectOf(a.id),
      },
      {
        endpoint: projectEndpoints.updateProject,
        mode: 'update',
        body: () => ({ id: added.id, ...place }),
        readBack: (a) => projectOf(a.id),
      },
    ];
    const wrong = [];
    for (const c of cases) wrong.push(...(await roundTrip(c)));
    expect(wrong).toEqual([]);
    // The call of the report, as the web sends it.
    const cleared = await data(send(projectEndpoints.updateProject, { body: { id: added.id, longitude: null } }));
    expect(cleared).toMatchObject({ longitude: null, latitude: place.latitude });
  });

  it('stores buildings and maps with null parents and floor plans as null', async () => {
    const top = await data(send(projectEndpoints.addBuilding, { body: { projectId, name: unique('Block') } }));
    const map = await data(send(mapEndpoints.addMap, { body: { buildId: top.id, name: unique('Level'), opacity: 60 } }));
    const cases: EchoCase[] = [
      { endpoint: projectEndpoints.addBuilding, mode: 'add', body: () => ({ projectId, name: unique('Wing') }), readBack: buildingOf },
      { endpoint: projectEndpoints.updateBuilding, mode: 'update', body: () => ({ id: top.id, name: 'Block A' }), readBack: buildingOf },
      {
        endpoint: mapEndpoints.addMap,
        mode: 'add',
        body: () => ({ buildId: top.id, name: unique('Floor'), opacity: 40 }),
        readBack: mapOf,
      },
      { endpoint: mapEndpoints.updateMap, mode: 'update', body: () => ({ id: map.id, name: 'Level 1', opacity: 70 }), readBack: mapOf },
    ];
    const wrong = [];
    for (const c of cases) wrong.push(...(await roundTrip(c)));
    expect(wrong).toEqual([]);
  });

  it('keeps a linkage without a daylight limit without one: the gateway switches the group on at any daylight', async () => {
    const sensor = devices.find((d) => d.kind === 'sensor-motion')!;
    const target = devices.find((d) => d.kind === 'light-cct')!;
    const group = await data<GroupView>(send(groupEndpoints.add, { body: { mapId, gatewayId, name: 'Corridor', deviceIds: [target.id] } }));
    const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 90, onClearPercent: 10, holdS: 10, lux: null };
    const wrong = await roundTrip({
      endpoint: sceneEndpoints.saveLinkage,
      mode: 'update',
      body: () => ({ ...linkage, lux: 500 }),
      readBack: async () => (await data(send(sceneEndpoints.linkages, { params: { mapId } }))).find((l) => l.sensorId === sensor.id)!,
    });
    expect(wrong).toEqual([]);
    expect(await data(send(sceneEndpoints.saveLinkage, { body: linkage }))).toMatchObject({ lux: null });

    await data(send(gatewayEndpoints.sync, { params: { id: gatewayId } }));
    await data(send(gatewayEndpoints.sensorsLinkage, { params: { id: gatewayId } }));
    const gateway = sim();
    expect(gateway.config.linkages).toEqual([expect.not.objectContaining({ luxAbove: expect.anything() })]);
    gateway.devices.get(target.addr)!.state.on = false;
    gateway.devices.get(sensor.addr)!.state.lux = 50_000;
    expect(gateway.detectMotion(sensor.addr)).toBe(true);
    expect(gateway.devices.get(target.addr)!.state).toMatchObject({ on: true });
  });
});
