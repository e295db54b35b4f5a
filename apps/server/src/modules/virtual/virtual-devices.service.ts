import {
  VIRTUAL_LIMITS,
  templateNameProblem,
  virtualTypeProblem,
  type DeviceParams,
  type ParamClass,
  type RelationBody,
  type RelationCandidate,
  type RelationResult,
  type SceneDetail,
  type VirtualBuildBody,
  type VirtualDevice,
  type VirtualGateway,
  type VirtualGatewaysParams,
  type VirtualListParams,
  type VirtualUpdateBody,
} from '@lumigrid/contract';
import type { RelationHandover } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import { denyAccess, seesMap, toId, visibleMapIds } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { ScenesService } from '../scenes/scenes.service.ts';
import type { ParamTemplatesService } from './param-templates.service.ts';
import type { VirtualRepo, VirtualRow } from './virtual.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope' | 'lang'>;

/** Several virtual devices built at once stand in a row of ten, then the next row. */
function layout(x: number | undefined, y: number | undefined, i: number): { x: number | null; y: number | null } {
  if (x === undefined || y === undefined) return { x: null, y: null };
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { x: clamp(x + (i % 10) * 0.04), y: clamp(y + Math.floor(i / 10) * 0.06) };
}

/** The scene's fields with a device added to one step, or undefined when it is a member of the scene already. */
function withMember(
  scene: SceneDetail,
  deviceId: string,
  step: number,
  action: SceneDetail['fields']['steps'][number]['members'][number]['action'],
) {
  const { fields } = scene;
  if (fields.steps.some((s) => s.members.some((m) => m.type === 'device' && m.id === deviceId))) return undefined;
  const at = step < fields.steps.length ? step : 0;
  return {
    ...fields,
    steps: fields.steps.map((s, i) =>
      i === at ? { ...s, members: [...s.members, { type: 'device' as const, id: deviceId, action }] } : s,
    ),
  };
}

function withoutMember(scene: SceneDetail, deviceId: string) {
  const { fields } = scene;
  return {
    ...fields,
    steps: fields.steps.map((s) => ({ ...s, members: s.members.filter((m) => !(m.type === 'device' && m.id === deviceId)) })),
  };
}

/**
 * Virtual devices (spec section 7 "Virtual devices"): stand-ins for devices not installed yet, placed on a
 * plan, put in groups and scenes, and later related to the real device that takes all of that over. The
 * groups and scenes domains never see a virtual device: its memberships live here until a relation hands
 * them to the real device through those domains' own calls, which check their own rules and sync the
 * gateway (docs/decisions.md, "Templates and virtual devices").
 */
export function createVirtualDevicesService(deps: {
  repo: VirtualRepo;
  access: Pick<ProjectAccess, 'requireMap'>;
  templates: Pick<ParamTemplatesService, 'requireTemplate'>;
  devices: Pick<DevicesService, 'moveIn' | 'moveOut' | 'setParams'>;
  groups: Pick<GroupsService, 'changeMembers'>;
  scenes: Pick<ScenesService, 'get' | 'update'>;
  gateways: Pick<GatewaysService, 'sync'>;
}) {
  const { repo } = deps;

  async function requireVirtual(auth: Caller, id: string | bigint): Promise<VirtualRow> {
    const [row] = await repo.virtuals({ tenantId: auth.tenantId, ids: [typeof id === 'bigint' ? id : toId(id)] });
    if (!row || !seesMap(auth, row.mapId)) denyAccess();
    return row;
  }

  async function views(rows: VirtualRow[]): Promise<VirtualDevice[]> {
    const virtualIds = rows.map((r) => r.id);
    const [groups, scenes] = await Promise.all([repo.groupsOf({ virtualIds }), repo.scenesOf({ virtualIds })]);
    return rows.map((r) => ({
      id: String(r.id),
      name: r.name,
      type: r.type,
      mapId: String(r.mapId),
      gatewayId: String(r.gatewayId),
      gatewayName: r.gatewayName,
      x: r.x,
      y: r.y,
      functionTemplateId: r.functionTemplateId === null ? null : String(r.functionTemplateId),
      interfaceTemplateId: r.interfaceTemplateId === null ? null : String(r.interfaceTemplateId),
      groups: groups.filter((g) => g.virtualId === r.id).map((g) => ({ id: String(g.id), name: g.name })),
      scenes: scenes
        .filter((s) => s.virtualId === r.id)
        .map((s) => ({ sceneId: String(s.sceneId), step: s.step, action: s.action, name: s.name })),
      related:
        r.relatedDeviceId === null || r.relatedAt === null
          ? null
          : { deviceId: String(r.relatedDeviceId), deviceName: r.relatedName ?? '', at: r.relatedAt.toISOString() },
      createdAt: r.createdAt.toISOString(),
    }));
  }

  const view = async (auth: Caller, id: bigint) => (await views([await requireVirtual(auth, id)]))[0]!;

  /** A template id for a virtual device of a type: the tenant's (110011), of that type and set (100702). */
  async function checkedTemplate(auth: Caller, id: string | null | undefined, type: number, kind: ParamClass) {
    if (id === undefined) return undefined;
    if (id === null) return null;
    const template = await deps.templates.requireTemplate(auth, id);
    if (template.deviceType !== type || template.kind !== kind) throw new AppError(100702, kind);
    return template.id;
  }

  function checkedName(raw: string): string {
    const name = raw.trim();
    const problem = templateNameProblem(name);
    if (problem) throw new AppError(problem, 'name');
    return name;
  }

  /** Sends the gateway its configuration after a relation changed its groups or scenes: 0, or why not. */
  async function syncGateway(auth: Caller, gatewayId: bigint, online: boolean): Promise<number> {
    if (!online) return 100101;
    try {
      await deps.gateways.sync(auth, String(gatewayId));
      return 0;
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  }

  /** Sets the merged parameters of templates on a device: 0, null without templates, or the failure code. */
  async function applyTemplates(auth: Caller, deviceId: bigint, templateIds: Array<bigint | null>): Promise<number | null> {
    const templates = await Promise.all(
      templateIds.filter((id): id is bigint => id !== null).map((id) => deps.templates.requireTemplate(auth, id)),
    );
    if (templates.length === 0) return null;
    const params: DeviceParams = Object.assign({}, ...templates.map((t) => t.params));
    try {
      await deps.devices.setParams(auth, { id: String(deviceId), params });
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
    for (const t of templates) await repo.linkDeviceTemplate({ deviceId, kind: t.kind, templateId: t.id });
    return 0;
  }

  /** Puts a device back where it was before a relation (outmap when it was not placed). */
  async function restorePlace(auth: Caller, deviceId: string, before: RelationHandover['before']) {
    if (before.mapId !== null && before.x !== null && before.y !== null) {
      await deps.devices.moveIn(auth, { mapId: before.mapId, devices: [{ id: deviceId, x: before.x, y: before.y }] });
    } else {
      await deps.devices.moveOut(auth, { ids: [deviceId] });
    }
  }

  /** Takes a device out of the groups and scenes it joined; each one that cannot be changed any more is left. */
  async function undoMemberships(auth: Caller, deviceId: string, joined: { groupIds: string[]; sceneIds: string[] }) {
    for (const sceneId of joined.sceneIds) {
      try {
        const scene = await deps.scenes.get(auth, sceneId);
        await deps.scenes.update(auth, { id: sceneId, ...withoutMember(scene, deviceId) });
      } catch (error) {
        // A scene deleted since, or one the device is the last member of, stays as it is.
        if (!(error instanceof AppError)) throw error;
      }
    }
    for (const groupId of joined.groupIds) {
      try {
        await deps.groups.changeMembers(auth, { id: groupId, remove: [deviceId] });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
  }

  return {
    /** POST vir/v1/build_devs_vir: `count` virtual devices of one type on a map and gateway, numbered after the name. */
    async build(auth: Caller, body: VirtualBuildBody): Promise<VirtualDevice[]> {
      assertMay(auth, 'write');
      const map = await deps.access.requireMap(auth, body.mapId);
      const gateway = await repo.gateway({ tenantId: auth.tenantId, id: toId(body.gatewayId) });
      if (!gateway || !seesMap(auth, gateway.mapId) || gateway.projectId !== map.projectId) denyAccess();
      const typeProblem = virtualTypeProblem(body.type);
      if (typeProblem) throw new AppError(typeProblem, 'type');
      const base = checkedName(body.name);
      const names = body.count === 1 ? [base] : Array.from({ length: body.count }, (_, i) => checkedName(`${base} ${i + 1}`));
      const functionTemplateId = await checkedTemplate(auth, body.functionTemplateId, body.type, 'function');
      const interfaceTemplateId = await checkedTemplate(auth, body.interfaceTemplateId, body.type, 'interface');
      if ((await repo.countOnMap({ mapId: map.id })) + body.count > VIRTUAL_LIMITS.perMap) throw new AppError(100706);
      const ids = await repo.insertVirtuals(
        names.map((name, i) => ({
          tenantId: auth.tenantId,
          mapId: map.id,
          gatewayId: gateway.id,
          type: body.type,
          name,
          ...layout(body.x, body.y, i),
          functionTemplateId: functionTemplateId ?? null,
          interfaceTemplateId: interfaceTemplateId ?? null,
        })),
      );
      return views(await repo.virtuals({ tenantId: auth.tenantId, ids }));
    },

    /** POST vir/v1/update_vir: name, position, templates, groups (of its gateway and map) and scenes (of its project). */
    async update(auth: Caller, body: VirtualUpdateBody): Promise<VirtualDevice> {
      assertMay(auth, 'write');
      const row = await requireVirtual(auth, body.id);
      if (row.relatedDeviceId !== null) throw new AppError(100703);
      const name = body.name === undefined ? undefined : checkedName(body.name);
      if ((body.x === undefined) !== (body.y === undefined)) throw new AppError(100001, body.x === undefined ? 'x' : 'y');
      const functionTemplateId = await checkedTemplate(auth, body.functionTemplateId, row.type, 'function');
      const interfaceTemplateId = await checkedTemplate(auth, body.interfaceTemplateId, row.type, 'interface');
      let groupIds: bigint[] | undefined;
      if (body.groupIds) {
        groupIds = [...new Set(body.groupIds.map(toId))];
        const facts = await repo.groupFacts({ tenantId: auth.tenantId, ids: groupIds });
        if (facts.length !== groupIds.length || facts.some((g) => !seesMap(auth, g.mapId))) denyAccess();
        if (facts.some((g) => g.gatewayId !== row.gatewayId || g.mapId !== row.mapId)) throw new AppError(270010, 'groupIds');
      }
      let scenes: Array<{ sceneId: bigint; step: number; action: (typeof body.scenes & object)[number]['action'] }> | undefined;
      if (body.scenes) {
        scenes = [...new Map(body.scenes.map((s) => [toId(s.sceneId), s])).entries()].map(([sceneId, s]) => ({
          sceneId,
          step: s.step,
          action: s.action,
        }));
        const facts = await repo.sceneFacts({ tenantId: auth.tenantId, ids: scenes.map((s) => s.sceneId) });
        const map = await deps.access.requireMap(auth, row.mapId);
        if (facts.length !== scenes.length || facts.some((s) => s.projectId !== map.projectId)) denyAccess();
        const steps = new Map(facts.map((s) => [s.id, Number(s.steps)]));
        if (scenes.some((s) => s.step >= (steps.get(s.sceneId) ?? 1))) throw new AppError(100001, 'step');
      }
      await repo.updateVirtual({
        tenantId: auth.tenantId,
        id: row.id,
        set: {
          ...(name === undefined ? {} : { name }),
          ...(body.x === undefined ? {} : { x: body.x, y: body.y }),
          ...(functionTemplateId === undefined ? {} : { functionTemplateId }),
          ...(interfaceTemplateId === undefined ? {} : { interfaceTemplateId }),
        },
        groupIds,
        scenes,
      });
      return view(auth, row.id);
    },

    /** GET vir/v1/delete_vir/{mapId}/{id}. */
    async remove(auth: Caller, mapId: string, id: string): Promise<null> {
      assertMay(auth, 'write');
      const map = await deps.access.requireMap(auth, mapId);
      const row = await requireVirtual(auth, id);
      if (row.mapId !== map.id) throw new AppError(270010);
      if (row.relatedDeviceId !== null) throw new AppError(100703);
      await repo.removeVirtual({ tenantId: auth.tenantId, id: row.id });
      return null;
    },

    /** GET vir/v1/vir_gateways/{projectId}/{buildId}/{mapId}: the project's gateways, the map's own first. */
    async gateways(auth: Caller, p: VirtualGatewaysParams): Promise<VirtualGateway[]> {
      const map = await deps.access.requireMap(auth, p.mapId);
      if (String(map.projectId) !== p.projectId || String(map.buildId) !== p.buildId) denyAccess();
      const rows = await repo.projectGateways({ tenantId: auth.tenantId, projectId: map.projectId, mapId: map.id });
      return rows
        .filter((g) => seesMap(auth, g.mapId))
        .map((g) => ({
          id: String(g.id),
          name: g.name,
          mac: g.mac,
          online: g.online,
          onMap: g.mapId === map.id,
          virtualDevices: Number(g.virtualDevices),
        }))
        .sort((a, b) => Number(b.onMap) - Number(a.onMap));
    },

    /** GET vir/v1/details/{id}. */
    async details(auth: Caller, id: string): Promise<VirtualDevice> {
      return view(auth, toId(id));
    },

    /** GET vir/v1/get_unrelat_vir_devices/{mapId}/{gatewayId}: what the plan draws; gatewayId 0 for all. */
    async unrelated(auth: Caller, p: VirtualListParams): Promise<VirtualDevice[]> {
      const map = await deps.access.requireMap(auth, p.mapId);
      let gatewayId: bigint | undefined;
      if (p.gatewayId !== '0') {
        const gateway = await repo.gateway({ tenantId: auth.tenantId, id: toId(p.gatewayId) });
        if (!gateway || !seesMap(auth, gateway.mapId)) denyAccess();
        gatewayId = gateway.id;
      }
      return views(await repo.virtuals({ tenantId: auth.tenantId, mapId: map.id, gatewayId, related: false }));
    },

    /** GET vir/v1/related/{mapId}: the related virtual devices of a map, for unrelat. */
    async related(auth: Caller, mapId: string): Promise<VirtualDevice[]> {
      const map = await deps.access.requireMap(auth, mapId);
      return views(await repo.virtuals({ tenantId: auth.tenantId, mapId: map.id, related: true }));
    },

    /** POST vir/v1/get_all_unrelat_devices: devices of its gateway and type that no virtual device stands for. */
    async candidates(auth: Caller, id: string): Promise<RelationCandidate[]> {
      const row = await requireVirtual(auth, id);
      const rows = await repo.relationCandidates({
        tenantId: auth.tenantId,
        gatewayId: row.gatewayId,
        type: row.type,
        mapIds: visibleMapIds(auth),
      });
      return rows.map((r) => ({
        id: String(r.id),
        name: r.name,
        type: r.type,
        addr: r.addr,
        mapId: r.mapId === null ? null : String(r.mapId),
      }));
    },

    /**
     * POST vir/v1/relation: the real device takes the virtual one's place, groups, scenes and templates. Place,
     * groups and scenes go through their domains' calls in that order (a group takes only devices on its map);
     * when one refuses, what was done is undone and the refusal is the answer. Templates are set through the
     * gateway last, and their failure does not undo the relation (the answer's `params` tells it).
     */
    async relate(auth: Caller, body: RelationBody): Promise<RelationResult> {
      assertMay(auth, 'write');
      const row = await requireVirtual(auth, body.id);
      if (row.relatedDeviceId !== null) throw new AppError(100703);
      const [device] = await repo.deviceFacts({ tenantId: auth.tenantId, ids: [toId(body.deviceId)], mapIds: visibleMapIds(auth) });
      if (!device) denyAccess();
      if (device.gatewayId !== row.gatewayId || device.type !== row.type) throw new AppError(100704);
      if (await repo.virtualOfDevice({ tenantId: auth.tenantId, deviceId: device.id })) throw new AppError(100704);
      const deviceId = String(device.id);
      const [current] = await views([row]);
      const [groupsBefore, scenesBefore, templatesBefore] = await Promise.all([
        repo.groupIdsOf({ deviceId: device.id }),
        repo.sceneIdsOf({ deviceId: device.id }),
        repo.deviceTemplates({ deviceId: device.id }),
      ]);
      const handover: RelationHandover = {
        before: { mapId: device.mapId === null ? null : String(device.mapId), x: device.x, y: device.y },
        groupIds: [],
        sceneIds: [],
        templates: {},
      };
      try {
        await deps.devices.moveIn(auth, { mapId: String(row.mapId), devices: [{ id: deviceId, x: row.x ?? 0.5, y: row.y ?? 0.5 }] });
        for (const group of current!.groups) {
          if (groupsBefore.includes(BigInt(group.id))) continue;
          await deps.groups.changeMembers(auth, { id: group.id, add: [deviceId] });
          handover.groupIds.push(group.id);
        }
        for (const member of current!.scenes) {
          if (scenesBefore.includes(BigInt(member.sceneId))) continue;
          const scene = await deps.scenes.get(auth, member.sceneId);
          const fields = withMember(scene, deviceId, member.step, member.action);
          if (!fields) continue;
          await deps.scenes.update(auth, { id: member.sceneId, ...fields });
          handover.sceneIds.push(member.sceneId);
        }
      } catch (error) {
        await undoMemberships(auth, deviceId, handover);
        await restorePlace(auth, deviceId, handover.before).catch(() => undefined);
        throw error;
      }
      for (const kind of ['function', 'interface'] as const) {
        handover.templates[kind] = templatesBefore[kind] === undefined ? null : String(templatesBefore[kind]);
      }
      const params = await applyTemplates(auth, device.id, [row.functionTemplateId, row.interfaceTemplateId]);
      await repo.setRelation({ tenantId: auth.tenantId, id: row.id, deviceId: device.id, handover });
      const gateway = await repo.gateway({ tenantId: auth.tenantId, id: row.gatewayId });
      const sync = handover.groupIds.length > 0 ? await syncGateway(auth, row.gatewayId, gateway?.online ?? false) : 0;
      return { virtual: await view(auth, row.id), params, sync };
    },

    /**
     * POST vir/v1/unrelat: the real device leaves the groups and scenes it joined through the relation and goes
     * back where it was; its templates are the ones it had before (the values stay on the device: parameters
     * live there). The virtual device returns to the plan with its own groups and scenes.
     */
    async unrelate(auth: Caller, id: string): Promise<RelationResult> {
      assertMay(auth, 'write');
      const row = await requireVirtual(auth, id);
      if (row.relatedDeviceId === null || !row.handover) throw new AppError(100705);
      const deviceId = String(row.relatedDeviceId);
      const { handover } = row;
      await undoMemberships(auth, deviceId, handover);
      try {
        await restorePlace(auth, deviceId, handover.before);
      } catch (error) {
        // The map it stood on is gone: it stays where the relation put it.
        if (!(error instanceof AppError)) throw error;
      }
      for (const kind of ['function', 'interface'] as const) {
        const before = handover.templates[kind];
        const templateId = before ? BigInt(before) : null;
        const [still] = templateId === null ? [] : await repo.templates({ tenantId: auth.tenantId, ids: [templateId] });
        if (still) await repo.linkDeviceTemplate({ deviceId: row.relatedDeviceId, kind, templateId: still.id });
        else await repo.unlinkDeviceTemplate({ deviceId: row.relatedDeviceId, kind });
      }
      await repo.setRelation({ tenantId: auth.tenantId, id: row.id, deviceId: null, handover: null });
      const gateway = await repo.gateway({ tenantId: auth.tenantId, id: row.gatewayId });
      const sync = handover.groupIds.length > 0 ? await syncGateway(auth, row.gatewayId, gateway?.online ?? false) : 0;
      return { virtual: await view(auth, row.id), params: null, sync };
    },
  };
}
export type VirtualDevicesService = ReturnType<typeof createVirtualDevicesService>;
