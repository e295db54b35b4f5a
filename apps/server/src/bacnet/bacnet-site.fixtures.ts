import { gatewayEndpoints, groupEndpoints, projectEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { endpointCaller, signUpByMail, type DATABASES } from '../test/harness.ts';
import { buildGatewayWithDevices, data, startGatewayRig } from '../test/gateways.fixtures.ts';
import type { BacnetServerOptions } from './bacnet-server.ts';
import { freeUdpPort } from './bacnet-client.fixtures.ts';

/**
 * A project with one simulated gateway whose devices are placed on one map, its dimmable lights in the group
 * "Open office", and the BACnet/IP interface serving the project on 127.0.0.1, bound to the signed-up `mail`.
 */
export async function startBacnetSite(
  kind: (typeof DATABASES)[number],
  at: { mail: string; deviceInstance: number; serving: Pick<BacnetServerOptions, 'freshMs' | 'reconcileMs'> },
) {
  const rig = await startGatewayRig(kind, { count: 1, commandTimeoutMs: 3000 });
  const token = await signUpByMail(rig.h, at.mail);
  const send = endpointCaller(
    () => rig.h.app,
    () => token,
  );
  const sim = rig.fleet.gateways[0]!;
  const built = await buildGatewayWithDevices(rig.h, token, { mac: sim.mac, name: 'North', place: () => true });
  const lights = built.devices.filter((d: GatewayDevice) => d.kind === 'light-dimmer' || d.kind === 'light-cct');
  const group = await data(
    send(groupEndpoints.add, {
      body: { mapId: built.mapId, gatewayId: built.gateway.id, name: 'Open office', deviceIds: lights.map((d) => d.id) },
    }),
  );
  await data(send(gatewayEndpoints.sync, { params: { id: built.gateway.id } }));
  const project = (await data(send(projectEndpoints.tree, { params: { id: '0' } }))).projects.find((p) => p.isDefault)!;
  const map = project.builds.flatMap((b) => b.maps).find((m) => m.id === built.mapId)!;
  const port = await freeUdpPort();
  await rig.h.app.bacnet.start(
    { port, interface: '127.0.0.1', deviceInstance: at.deviceInstance, account: at.mail, projectId: BigInt(project.id), readOnly: false },
    at.serving,
  );
  return { rig, token, projectId: project.id, map, lights, group, port };
}
