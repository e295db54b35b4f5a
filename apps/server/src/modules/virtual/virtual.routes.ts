import { virtualEndpoints as V } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { ParamTemplatesService } from './param-templates.service.ts';
import type { VirtualDevicesService } from './virtual-devices.service.ts';

/** The virtual device and parameter template calls of the endpoint table (contract endpoints/virtual.ts). */
export function registerVirtualRoutes(route: RouteOf, deps: { templates: ParamTemplatesService; virtuals: VirtualDevicesService }) {
  const { templates, virtuals } = deps;

  route(V.templates, ({ auth, params, query }) => templates.list(auth, params.type, query.kind));
  route(V.buildTemplate, ({ auth, body }) => templates.build(auth, body));
  route(V.updateTemplate, ({ auth, body }) => templates.update(auth, body));
  route(V.deleteTemplate, ({ auth, params }) => templates.remove(auth, params.id));
  route(V.applyTemplate, ({ auth, body }) => templates.apply(auth, body));

  route(V.buildVirtual, ({ auth, body }) => virtuals.build(auth, body));
  route(V.updateVirtual, ({ auth, body }) => virtuals.update(auth, body));
  route(V.deleteVirtual, ({ auth, params }) => virtuals.remove(auth, params.mapId, params.id));
  route(V.gateways, ({ auth, params }) => virtuals.gateways(auth, params));
  route(V.details, ({ auth, params }) => virtuals.details(auth, params.id));
  route(V.unrelated, ({ auth, params }) => virtuals.unrelated(auth, params));
  route(V.related, ({ auth, params }) => virtuals.related(auth, params.mapId));
  route(V.candidates, ({ auth, body }) => virtuals.candidates(auth, body.id));
  route(V.relate, ({ auth, body }) => virtuals.relate(auth, body));
  route(V.unrelate, ({ auth, body }) => virtuals.unrelate(auth, body.id));
}
