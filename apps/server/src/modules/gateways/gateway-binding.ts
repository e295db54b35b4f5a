import {
  type Gateway,
  type GatewayBindBody,
  type GatewayListQuery,
  type GatewayLookup,
  type GatewayPage,
  type GatewayPlaceBody,
  type GatewayPositionBody,
  type GatewayRenameBody,
} from '@lumigrid/contract';
import { normaliseMac } from '@lumigrid/protocol';
import { AppError } from '../../http/app-error.ts';
import { paging } from '../../lib/paging.ts';
import { cleanName } from '../projects/access.ts';
import { denyAccess, seesMap, toId, visibleMapIds } from '../access/access.ts';
import { assertMay } from '../../http/authority.ts';
import type { GatewayContext, Caller } from './gateway-context.ts';

/** The MAC in its topic form, or 100001 for something that is not one (the schema has checked the shape). */
function cleanMac(value: string): string {
  const mac = normaliseMac(value);
  if (!mac) throw new AppError(100001, 'mac');
  return mac;
}

/** Binding from the pool, the gateway's place and name, unbinding (spec section 7 "Gateways"). */
export function gatewayBindingCalls(ctx: GatewayContext) {
  const { deps, repo, clock, requireGateway, requireMap, view, reload } = ctx;
  return {
    /** GET gateway/v1/gateways */
    async list(auth: Caller, q: GatewayListQuery): Promise<GatewayPage> {
      // A project, building or map of another account simply matches nothing of this tenant; say so instead.
      if (q.mapId !== undefined) await requireMap(auth, q.mapId);
      if (q.projectId !== undefined) await deps.access.requireProject(auth, q.projectId);
      if (q.buildId !== undefined) await deps.access.requireBuilding(auth, q.buildId);
      const { total, list } = await repo.list({
        tenantId: auth.tenantId,
        mapIds: visibleMapIds(auth),
        projectId: q.projectId === undefined ? undefined : toId(q.projectId),
        buildId: q.buildId === undefined ? undefined : toId(q.buildId),
        mapId: q.mapId === undefined ? undefined : toId(q.mapId),
        text: q.name?.trim() || undefined,
        online: q.online,
        ...paging(q),
      });
      return { total, list: list.map(view) };
    },

    /** GET map/v1/gateways/{buildId}/{mapId}: every gateway standing on the map; a map of another building answers 110011. */
    async ofMap(auth: Caller, buildId: string, mapId: string): Promise<Gateway[]> {
      const map = await requireMap(auth, mapId);
      if (map.buildId !== toId(buildId)) denyAccess();
      const { list } = await repo.list({ tenantId: auth.tenantId, mapId: map.id, offset: 0, limit: Number.MAX_SAFE_INTEGER });
      return list.map(view);
    },

    /** GET gateway/v1/detail/{id} */
    async detail(auth: Caller, id: string): Promise<Gateway> {
      return view(await requireGateway(auth, id));
    },

    /** POST gateway/v1/search_device_for_mac: what binding this MAC would do. */
    async lookup(auth: Caller, mac: string): Promise<GatewayLookup> {
      const bare = cleanMac(mac);
      const row = await repo.findByMacAnyTenant({ mac: bare });
      if (row?.tenantId === null) return { mac: bare, state: 'pool', online: row.online, superGateway: row.superGateway, gateway: null };
      if (row && row.tenantId === auth.tenantId && seesMap(auth, row.mapId))
        return { mac: bare, state: 'yours', online: row.online, superGateway: row.superGateway, gateway: await reload(auth, row.id) };
      // Never provisioned, or someone else's: one answer, so a MAC does not tell whether another account has it.
      return { mac: bare, state: 'unavailable', online: false, superGateway: false, gateway: null };
    },

    /**
     * POST gateway/v1/move: binds a gateway from the pool to a map by MAC; binding one the caller already has
     * moves it to the map. A MAC never provisioned and one bound to another account (or beyond a limited
     * sub-account's projects) answer the same 100110 after the same one query, so a MAC tells nothing of
     * other accounts.
     */
    async bind(auth: Caller, body: GatewayBindBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const mac = cleanMac(body.mac);
      const map = await requireMap(auth, body.mapId);
      const name = body.name === undefined ? mac : cleanName(body.name);
      const row = await repo.findByMacAnyTenant({ mac });
      if (row && row.tenantId === auth.tenantId && seesMap(auth, row.mapId)) {
        await repo.changePlace({ tenantId: auth.tenantId, id: row.id, mapId: map.id, at: clock.now() });
        if (body.name !== undefined) await repo.update({ tenantId: auth.tenantId, id: row.id, set: { name }, at: clock.now() });
        return reload(auth, row.id);
      }
      if (row?.tenantId !== null) throw new AppError(100110);
      // Another account binding the same gateway at this moment wins the conditional update or this one does.
      if (!(await repo.bindFromPool({ tenantId: auth.tenantId, id: row.id, mapId: map.id, name, at: clock.now() })))
        throw new AppError(100110);
      return reload(auth, row.id);
    },

    /** POST gateway/v1/update_name */
    async rename(auth: Caller, body: GatewayRenameBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { name: cleanName(body.name) }, at: clock.now() });
      return reload(auth, row.id);
    },

    /** PUT gateway/v1/position: where the gateway is drawn on its map's floor plan. */
    async position(auth: Caller, body: GatewayPositionBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { planX: body.x, planY: body.y }, at: clock.now() });
      return reload(auth, row.id);
    },

    /** POST gateway/v1/change_place: the gateway and its placed devices go to another map of the account. */
    async changePlace(auth: Caller, body: GatewayPlaceBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      const map = await requireMap(auth, body.mapId);
      await repo.changePlace({ tenantId: auth.tenantId, id: row.id, mapId: map.id, at: clock.now() });
      return reload(auth, row.id);
    },

    /**
     * GET gateway/v1/delete/{id}: unbinds the gateway; refused (260013) while any of its devices is on a
     * map. Its other devices are removed, and it goes back to the pool with its credentials.
     */
    async unbind(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const outcome = await repo.unbind({ tenantId: auth.tenantId, id: row.id, at: clock.now() });
      if (outcome === 'missing') denyAccess();
      if (outcome === 'linked') throw new AppError(260013);
    },
  };
}
