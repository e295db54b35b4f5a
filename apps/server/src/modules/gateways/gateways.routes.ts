import { gatewayEndpoints as E, mapEndpoints } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { GatewaysService } from './gateways.service.ts';

/** The gateway calls of the endpoint table (contract endpoints/gateways.ts). */
export function registerGatewayRoutes(route: RouteOf, deps: { gateways: GatewaysService }) {
  const { gateways } = deps;

  route(E.list, ({ auth, query }) => gateways.list(auth, query));

  route(E.detail, ({ auth, params }) => gateways.detail(auth, params.id));

  route(mapEndpoints.gateways, ({ auth, params }) => gateways.ofMap(auth, params.buildId, params.mapId));

  route(E.lookup, ({ auth, body }) => gateways.lookup(auth, body.mac));

  route(E.bind, ({ auth, body }) => gateways.bind(auth, body));

  route(E.rename, ({ auth, body }) => gateways.rename(auth, body));

  route(E.changePlace, ({ auth, body }) => gateways.changePlace(auth, body));
  route(E.position, ({ auth, body }) => gateways.position(auth, body));

  route(E.setParams, ({ auth, body }) => gateways.setParams(auth, body));

  route(E.setLonLat, ({ auth, body }) => gateways.setLonLat(auth, body));

  route(E.identify, async ({ auth, params }) => {
    await gateways.identify(auth, params.id);
    return null;
  });

  route(E.restart, async ({ auth, params }) => {
    await gateways.restart(auth, params.id);
    return null;
  });

  route(E.readTime, ({ auth, params }) => gateways.readTime(auth, params.id));

  route(E.syncTime, ({ auth, params }) => gateways.syncTime(auth, params.id));

  route(E.reReport, ({ auth, params }) => gateways.reReport(auth, params.id));

  route(E.refreshAll, ({ auth, params }) => gateways.refreshAll(auth, params.id));

  route(E.broadcast, ({ auth, query }) => gateways.broadcast(auth, query));

  route(E.sensorsIndependent, ({ auth, params }) => gateways.setSensorMode(auth, params.id, 'independent'));

  route(E.sensorsLinkage, ({ auth, params }) => gateways.setSensorMode(auth, params.id, 'linkage'));

  route(E.setMicrowaveParams, ({ auth, body }) => gateways.setMicrowaveParams(auth, body));

  route(E.checkImport, ({ auth, params }) => gateways.checkImport(auth, params.id));

  route(E.importDevices, ({ auth, params }) => gateways.importDevices(auth, params.id));

  route(E.outmapDevices, ({ auth, params }) => gateways.outmapDevices(auth, params.mapId, params.gatewayId));

  route(E.unbind, async ({ auth, params }) => {
    await gateways.unbind(auth, params.id);
    return null;
  });

  route(E.superGatewayDevices, async ({ auth, params }) => await gateways.superGatewayDevices(auth, params.id, params.bridgeId));

  route(E.unbindBridge, async ({ auth, params }) => {
    await gateways.unbindBridge(auth, params.id, params.bridgeId);
    return null;
  });

  route(E.syncStatus, ({ auth }) => gateways.syncStatus(auth));

  route(E.sync, ({ auth, params }) => gateways.sync(auth, params.id));

  route(E.checkVersion, ({ auth, params }) => gateways.checkVersion(auth, params));

  route(E.startUpdate, ({ auth, params }) => gateways.startUpdate(auth, params));

  route(E.updateProgress, ({ auth, params }) => gateways.updateProgress(auth, params.id));
}
