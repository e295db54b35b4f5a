import { randomUUID } from 'node:crypto';
import {
  SCENE_IMAGE,
  SCENE_LIMITS,
  TIMED_SCENE_KINDS,
  deviceType,
  inFamily,
  percentToLevel,
  sceneFieldsProblem,
  sceneImageUrl,
  type ErrorCode,
  type ExecuteAutoBody,
  type ExecuteAutoResult,
  type InputSceneBody,
  type ManualScene,
  type PanelKeys,
  type SceneDetail,
  type SceneFields,
  type SceneKind,
  type SceneListBody,
  type ScenePage,
  type SceneRun,
  type SceneRunPage,
  type SceneRunsBody,
  type SceneSaveResult,
  type SceneSettings,
  type SceneUpdateBody,
  type SceneView,
  type SceneWeekBody,
  type SceneWeekRun,
  type SensorLinkage,
  type SensorLinkageView,
} from '@lumigrid/contract';
import { nextRuns, scheduleRuns, type DecodedUp, type EventMessage, type SchedulePlace } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import { storedImageType, type ImageStore } from '../../lib/image-store.ts';
import { checkedPicture } from '../../lib/picture.ts';
import { paging } from '../../lib/paging.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { GatewayConfigSource } from '../gateways/gateway-context.ts';
import { denyAccess, seesMap, toId } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import { allocatePartNumber, gatewaySceneId, partConfig, partOfGatewayScene, type PartPlan } from './scene-config.ts';
import type { MemberRecord, SceneRecord, SceneRow, ScenesRepo } from './scenes.repo.ts';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;
type PartRow = Awaited<ReturnType<ScenesRepo['parts']>>[number];
type MemberRow = Awaited<ReturnType<ScenesRepo['members']>>[number];

const DAY = 86_400_000;
const UPCOMING = 7;

/** The local date (YYYY-MM-DD) of an instant in a time zone. */
function localDate(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

const placeOf = (p: { latitude: number | null; longitude: number | null; timezone: string | null }): SchedulePlace => ({
  ...(p.latitude !== null && p.longitude !== null ? { latitude: p.latitude, longitude: p.longitude } : {}),
  timezone: p.timezone ?? 'UTC',
});

/** The rules of a stored scene as partConfig takes them, without members (enough for its schedules). */
function planOf(scene: SceneRow, number: number, members: PartPlan['members'] = []): PartPlan {
  const { name, fadeS, holds, triggers, days, fromDate, toDate, skipHolidays, daliScene } = scene;
  return { name, kind: scene.kind as SceneKind, fadeS, holds, triggers, days, fromDate, toDate, skipHolidays, daliScene, number, members };
}

/**
 * Scenes and schedules, spec section 7 "Scenes". A scene belongs to a project; the server splits it into one
 * part per gateway its members are on, each part goes to its gateway with the configuration (the version
 * rises, add and update sync online gateways at once), and the gateways run the schedules on their own clocks
 * and report each run. Manual runs go to every part at once (scene.run).
 */
export function createScenesService(deps: {
  repo: ScenesRepo;
  access: Pick<ProjectAccess, 'requireProject' | 'requireMap'>;
  gateways: Pick<GatewaysService, 'configChanged' | 'pushConfig' | 'sync'>;
  link: Pick<GatewayLink, 'bus'> | undefined;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** Where scene pictures are kept. */
  images: ImageStore;
  /** Devices and groups per scene per gateway: 10, or 20 where the gateways allow it (spec section 9). */
  targetsPerGateway?: number;
  commandTimeoutMs?: number;
  /** Told every run a gateway took (webhooks). */
  events?: WebhookEvents;
}) {
  const { repo, clock } = deps;
  const targetsPerGateway = deps.targetsPerGateway ?? SCENE_LIMITS.targetsPerGateway.default;
  const manualRuns = new Map<bigint, number>();

  async function requireScene(auth: Caller, id: string | bigint): Promise<SceneRow> {
    const row = await repo.find({ tenantId: auth.tenantId, id: typeof id === 'bigint' ? id : toId(id) });
    if (!row) denyAccess();
    await deps.access.requireProject(auth, row.projectId);
    return row;
  }

  const holidaysCache = () => {
    const cache = new Map<bigint, Promise<string[]>>();
    return (projectId: bigint | null) => {
      if (projectId === null) return Promise.resolve([]);
      let dates = cache.get(projectId);
      if (!dates) {
        dates = repo.settings({ projectId }).then((s) => s.holidays.map((h) => h.date));
        cache.set(projectId, dates);
      }
      return dates;
    };
  };

  /** The next runs of a scene's parts after now, as each gateway computes them: [at, then, gateway]. */
  async function upcoming(scene: SceneRow, parts: PartRow[], count: number, holidaysOf = holidaysCache()) {
    if (!TIMED_SCENE_KINDS.includes(scene.kind as SceneKind)) return [];
    const runs: Array<{ at: number; then: 'start' | 'end'; gatewayId: string; timezone: string }> = [];
    for (const part of parts) {
      const { schedules } = partConfig(planOf(scene, part.number));
      for (const run of nextRuns(schedules, placeOf(part), await holidaysOf(part.projectId), clock.now().getTime(), count))
        runs.push({
          at: run.at,
          then: partOfGatewayScene(run.scene).then,
          gatewayId: String(part.gatewayId),
          timezone: part.timezone ?? 'UTC',
        });
    }
    return runs.sort((a, b) => a.at - b.at).slice(0, count);
  }

  function runsOf(rows: Awaited<ReturnType<ScenesRepo['latestRuns']>>): Map<string, SceneRun> {
    const byKey = new Map<string, SceneRun>();
    for (const { run, gatewayName } of rows) {
      const key = `${run.sceneId}:${run.runKey}`;
      const entry = byKey.get(key) ?? {
        at: run.ranAt.toISOString(),
        trigger: run.trigger as SceneRun['trigger'],
        then: run.then as SceneRun['then'],
        parts: [],
      };
      entry.parts.push({ gatewayId: String(run.gatewayId), gatewayName, code: run.code, targets: run.targets, failed: run.failed });
      byKey.set(key, entry);
    }
    return byKey;
  }

  async function views(auth: Caller, rows: SceneRow[]): Promise<SceneView[]> {
    const ids = rows.map((r) => r.id);
    const [members, parts, latest] = await Promise.all([
      repo.members({ tenantId: auth.tenantId, sceneIds: ids }),
      repo.parts({ tenantId: auth.tenantId, sceneIds: ids }),
      repo.latestRuns({ tenantId: auth.tenantId, sceneIds: ids }),
    ]);
    const lastRuns = new Map([...runsOf(latest)].map(([key, run]) => [key.split(':')[0]!, run]));
    const holidaysOf = holidaysCache();
    return Promise.all(
      rows.map(async (row) => {
        const mine = members.filter((m) => m.sceneId === row.id);
        const myParts = parts.filter((p) => p.sceneId === row.id);
        const partViews = myParts.map((p) => ({
          id: String(p.id),
          gatewayId: String(p.gatewayId),
          gatewayName: p.gatewayName,
          timezone: p.timezone ?? 'UTC',
          online: p.online,
          onGateway: p.version > 0 && (p.syncedVersion ?? 0) >= p.version,
          targets: new Set(mine.filter((m) => m.gatewayId === p.gatewayId).map((m) => `${m.deviceId ?? ''}:${m.groupId ?? ''}`)).size,
        }));
        const [next] = await upcoming(row, myParts, 1, holidaysOf);
        return {
          id: String(row.id),
          projectId: String(row.projectId),
          name: row.name,
          kind: row.kind as SceneKind,
          image: row.image === null ? null : sceneImageUrl(row.image),
          devices: new Set(mine.filter((m) => m.deviceId !== null).map((m) => m.deviceId)).size,
          groups: new Set(mine.filter((m) => m.groupId !== null).map((m) => m.groupId)).size,
          parts: partViews,
          nextRun: next?.at ?? null,
          lastRun: lastRuns.get(String(row.id)) ?? null,
          state: partViews.every((p) => p.onGateway) ? ('synced' as const) : ('pending' as const),
          createdAt: row.createdAt.toISOString(),
        };
      }),
    );
  }

  /**
   * The members of a scene checked against its project and the rules that need the database: every member the
   * tenant's and in the project (110011), at least one lighting device (100204), at most targetsPerGateway
   * per gateway (310005), located gateways for sun times (310009), room on each gateway (310001).
   */
  async function checkedMembers(auth: Caller, fields: SceneFields, sceneId?: bigint) {
    const all = fields.steps.flatMap((step, s) => step.members.map((m, position) => ({ ...m, step: s, position })));
    const deviceIds = [...new Set(all.filter((m) => m.type === 'device').map((m) => toId(m.id)))];
    const groupIds = [...new Set(all.filter((m) => m.type === 'group').map((m) => toId(m.id)))];
    const [devices, groups] = await Promise.all([
      repo.deviceFacts({ tenantId: auth.tenantId, ids: deviceIds }),
      repo.groupFacts({ tenantId: auth.tenantId, ids: groupIds }),
    ]);
    const projectId = toId(fields.projectId);
    const inProject = (r: { projectId: bigint | null; mapId: bigint | null }) => r.projectId === projectId && seesMap(auth, r.mapId);
    if (devices.length !== deviceIds.length || groups.length !== groupIds.length) denyAccess();
    if (![...devices, ...groups].every(inProject)) denyAccess();
    const lighting = (type: number) => deviceType(type)?.lighting ?? false;
    if (!devices.some((d) => lighting(d.type)) && !groups.some((g) => g.types.some(lighting))) throw new AppError(100204);

    const gatewayOf = new Map<string, bigint>([
      ...devices.map((d) => [`device:${d.id}`, d.gatewayId] as const),
      ...groups.map((g) => [`group:${g.id}`, g.gatewayId] as const),
    ]);
    const targets = new Map<bigint, Set<string>>();
    for (const m of all) {
      const key = `${m.type}:${toId(m.id)}`;
      const gatewayId = gatewayOf.get(key)!;
      targets.set(gatewayId, (targets.get(gatewayId) ?? new Set()).add(key));
    }
    if ([...targets.values()].some((t) => t.size > targetsPerGateway)) throw new AppError(310005);
    const gatewayIds = [...targets.keys()];
    if (fields.kind === 'sun') {
      const located = await repo.gateways({ tenantId: auth.tenantId, ids: gatewayIds });
      if (located.some((g) => g.latitude === null || g.longitude === null)) throw new AppError(310009);
    }
    const held = await repo.partCounts({ gatewayIds, exceptSceneId: sceneId });
    if (gatewayIds.some((id) => (held.get(id) ?? 0) >= SCENE_LIMITS.scenesPerGateway)) throw new AppError(310001);

    const members: MemberRecord[] = all.map((m) => ({
      step: m.step,
      position: m.position,
      deviceId: m.type === 'device' ? toId(m.id) : null,
      groupId: m.type === 'group' ? toId(m.id) : null,
      action: m.action,
    }));
    return { members, gatewayIds };
  }

  function record(auth: Caller, fields: SceneFields): SceneRecord {
    return {
      tenantId: auth.tenantId,
      projectId: toId(fields.projectId),
      name: fields.name.trim(),
      kind: fields.kind,
      fadeS: fields.fadeS,
      holds: fields.steps.map((s) => (fields.kind === 'sequence' ? s.holdS : 0)),
      triggers: fields.triggers,
      days: [...new Set(fields.days)].sort(),
      fromDate: fields.from,
      toDate: fields.kind === 'once' ? fields.from : fields.to,
      skipHolidays: fields.skipHolidays,
      daliScene: fields.kind === 'sequence' ? fields.daliScene : null,
      sequenceNo: fields.kind === 'sequence' ? fields.sequenceNo : null,
    };
  }

  /**
   * A change of what gateways run besides a saved scene (holidays, linkages, panel keys, a deleted scene or
   * part): their versions rise and the online ones get it shortly, so nothing waits for the sync banner.
   */
  async function changedOnGateways(auth: Caller, gatewayIds: bigint[]) {
    await deps.gateways.configChanged({ tenantId: auth.tenantId, gatewayIds });
    deps.gateways.pushConfig({ tenantId: auth.tenantId, gatewayIds });
  }

  /** Sends the configuration to the online gateways a change touched; per gateway 0 or why not. */
  async function syncTouched(auth: Caller, gatewayIds: bigint[]): Promise<SceneSaveResult['sync']> {
    const rows = await repo.gateways({ tenantId: auth.tenantId, ids: gatewayIds });
    return Promise.all(
      rows.map(async (g) => {
        const result = { gatewayId: String(g.id), gatewayName: g.name };
        if (!g.online || !deps.link) return { ...result, code: 100101 };
        try {
          await deps.gateways.sync(auth, String(g.id));
          return { ...result, code: 0 };
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          // Silence from the gateway is the spec's "timeout for adding scene".
          return { ...result, code: error.code === 100109 ? 310003 : error.code };
        }
      }),
    );
  }

  async function save(auth: Caller, fields: SceneFields, existing?: SceneRow): Promise<SceneSaveResult> {
    assertMay(auth, 'write');
    await deps.access.requireProject(auth, fields.projectId);
    const problem = sceneFieldsProblem(fields);
    if (problem) throw new AppError(problem);
    const name = fields.name.trim();
    if (await repo.nameTaken({ projectId: toId(fields.projectId), name, exceptId: existing?.id })) throw new AppError(310002);
    const { members, gatewayIds } = await checkedMembers(auth, fields, existing?.id);
    const saved = await duplicateAs(310002, () =>
      repo.save({
        id: existing?.id,
        scene: record(auth, fields),
        members,
        gatewayIds,
        allocate: (used) => {
          const number = allocatePartNumber(used);
          if (number === undefined) throw new AppError(310001);
          return number;
        },
      }),
    );
    await deps.gateways.configChanged({ tenantId: auth.tenantId, gatewayIds: saved.touched });
    const versions = await repo.gateways({ tenantId: auth.tenantId, ids: gatewayIds });
    await repo.setPartVersions({ sceneId: saved.id, versions: new Map(versions.map((g) => [g.id, g.configVersion])) });
    const sync = await syncTouched(auth, saved.touched);
    const row = await requireScene(auth, saved.id);
    const [scene] = await views(auth, [row]);
    return { scene: scene!, sync };
  }

  /** Runs a scene on every gateway that holds a part of it, at once. */
  async function execute(auth: Caller, id: string): Promise<SceneRun> {
    assertMay(auth, 'control');
    const scene = await requireScene(auth, id);
    if (TIMED_SCENE_KINDS.includes(scene.kind as SceneKind)) throw new AppError(310007);
    const inFlight = manualRuns.get(auth.tenantId) ?? 0;
    if (inFlight >= SCENE_LIMITS.manualRunsInFlight) throw new AppError(310004);
    manualRuns.set(auth.tenantId, inFlight + 1);
    try {
      const parts = await repo.parts({ tenantId: auth.tenantId, sceneIds: [scene.id] });
      const link = deps.link;
      const ranAt = clock.now();
      const outcomes = await Promise.all(
        parts.map(async (p) => {
          const base = { gatewayId: String(p.gatewayId), gatewayName: p.gatewayName, targets: 0, failed: 0 };
          if (!link || !p.online) return { ...base, code: 100101 };
          if (p.version === 0 || (p.syncedVersion ?? 0) < p.version) {
            // The gateway does not run the scene as it is now: it gets it first, as a save would have given it.
            const [synced] = await syncTouched(auth, [p.gatewayId]);
            if (synced?.code !== 0) return { ...base, code: synced?.code ?? 310003 };
          }
          const outcome = await link.bus.send(
            p.mac,
            'scene.run',
            { scene: gatewaySceneId(p.number, 'start') },
            deps.commandTimeoutMs === undefined ? undefined : { timeoutMs: deps.commandTimeoutMs },
          );
          if (outcome.state !== 'succeeded') return { ...base, code: outcome.errorCode };
          return { ...base, code: 0, targets: outcome.result.targets, failed: outcome.result.failed };
        }),
      );
      const runKey = `manual:${randomUUID()}`;
      await repo.insertRuns(
        parts.map((p, i) => ({
          tenantId: auth.tenantId,
          sceneId: scene.id,
          gatewayId: p.gatewayId,
          runKey,
          trigger: 'manual',
          then: 'start',
          code: outcomes[i]!.code,
          targets: outcomes[i]!.targets,
          failed: outcomes[i]!.failed,
          ranAt,
        })),
      );
      // A run no gateway took is a failure, though the history keeps the attempt: 100101 when every gateway
      // is offline, else why the first reachable one did not run it. A run some gateways took is a success
      // whose parts name the ones that missed it (docs/api.md).
      if (outcomes.some((o) => o.code === 0))
        deps.events?.emit({
          kind: 'scene.ran',
          tenantId: auth.tenantId,
          projectId: scene.projectId,
          at: ranAt,
          data: { sceneId: String(scene.id), name: scene.name, trigger: 'manual', then: 'start', parts: outcomes },
        });
      if (!outcomes.some((o) => o.code === 0)) {
        throw new AppError((outcomes.find((o) => o.code !== 100101)?.code ?? 100101) as ErrorCode);
      }
      return { at: ranAt.toISOString(), trigger: 'manual', then: 'start', parts: outcomes };
    } finally {
      const left = (manualRuns.get(auth.tenantId) ?? 1) - 1;
      if (left > 0) manualRuns.set(auth.tenantId, left);
      else manualRuns.delete(auth.tenantId);
    }
  }

  /** A run a gateway started (schedule, sun time, panel key) and reported; manual runs are recorded from their replies. */
  async function recordGatewayRun(mac: string, event: Extract<EventMessage, { type: 'scene' }>) {
    if (event.trigger === 'manual') return;
    const gateway = await repo.gatewayByMac(mac);
    if (!gateway?.tenantId) return;
    const { number, then } = partOfGatewayScene(event.scene);
    const part = await repo.partByNumber({ gatewayId: gateway.id, number });
    if (!part || part.tenantId !== gateway.tenantId) return;
    await repo.insertRuns([
      {
        tenantId: part.tenantId,
        sceneId: part.sceneId,
        gatewayId: gateway.id,
        runKey: `${event.trigger}:${then}:${event.ts}`,
        trigger: event.trigger,
        then,
        code: 0,
        targets: event.targets,
        failed: event.failed,
        ranAt: new Date(event.ts),
      },
    ]);
    deps.events?.emit({
      kind: 'scene.ran',
      tenantId: part.tenantId,
      projectId: part.projectId,
      at: new Date(event.ts),
      data: {
        sceneId: String(part.sceneId),
        name: part.sceneName,
        trigger: event.trigger,
        then,
        parts: [{ gatewayId: String(gateway.id), code: 0, targets: event.targets, failed: event.failed }],
      },
    });
  }

  return {
    async page(auth: Caller, body: SceneListBody): Promise<ScenePage> {
      const project = await deps.access.requireProject(auth, body.projectId);
      const { rows, total } = await repo.page({
        tenantId: auth.tenantId,
        projectId: project.id,
        name: body.name?.trim() || undefined,
        kind: body.kind,
        ...paging(body),
      });
      return { total, list: await views(auth, rows) };
    },

    /** Every scene of a list's filters, for the Excel export. */
    async all(auth: Caller, body: { projectId: string; name?: string; kind?: SceneKind }): Promise<SceneView[]> {
      const project = await deps.access.requireProject(auth, body.projectId);
      const rows = await repo.list({
        tenantId: auth.tenantId,
        projectId: project.id,
        name: body.name?.trim() || undefined,
        kind: body.kind,
      });
      return views(auth, rows);
    },

    async get(auth: Caller, id: string): Promise<SceneDetail> {
      const row = await requireScene(auth, id);
      const [[view], members, parts] = await Promise.all([
        views(auth, [row]),
        repo.members({ tenantId: auth.tenantId, sceneIds: [row.id] }),
        repo.parts({ tenantId: auth.tenantId, sceneIds: [row.id] }),
      ]);
      const steps = row.holds.map((holdS, s) => ({
        holdS,
        members: members.filter((m) => m.step === s).map((m) => memberOf(m)),
      }));
      return {
        ...view!,
        fields: {
          projectId: String(row.projectId),
          name: row.name,
          kind: row.kind as SceneKind,
          fadeS: row.fadeS,
          steps,
          triggers: row.triggers,
          days: row.days,
          from: row.fromDate,
          to: row.toDate,
          skipHolidays: row.skipHolidays,
          daliScene: row.daliScene,
          sequenceNo: row.sequenceNo,
        },
        members: members.map((m) => ({
          ...memberOf(m),
          name: m.deviceName ?? m.groupName ?? '',
          gatewayId: String(m.gatewayId),
          mapId: m.mapId === null ? null : String(m.mapId),
          deviceType: m.deviceType,
        })),
        upcoming: await upcoming(row, parts, UPCOMING),
      };
    },

    add: (auth: Caller, body: SceneFields) => save(auth, body),

    async update(auth: Caller, body: SceneUpdateBody): Promise<SceneSaveResult> {
      const existing = await requireScene(auth, body.id);
      const { id: _id, ...fields } = body;
      // The kind and the project stay what they were.
      return save(auth, { ...fields, projectId: String(existing.projectId), kind: existing.kind as SceneKind }, existing);
    },

    async remove(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'write');
      const scene = await requireScene(auth, id);
      const parts = await repo.parts({ tenantId: auth.tenantId, sceneIds: [scene.id] });
      await repo.remove({ tenantId: auth.tenantId, id: scene.id });
      if (scene.image) await deps.images.remove(scene.image);
      await changedOnGateways(
        auth,
        parts.map((p) => p.gatewayId),
      );
    },

    /** Sets a scene's picture (png or jpeg up to 1 MB, whole) and deletes the one it replaces. */
    async setImage(auth: Caller, id: string | undefined, data: Buffer): Promise<SceneView> {
      assertMay(auth, 'write');
      if (id === undefined) throw new AppError(100001, 'id');
      const scene = await requireScene(auth, id);
      const file = await deps.images.save(await checkedPicture(data, SCENE_IMAGE.maxBytes));
      await repo.setImage({ tenantId: auth.tenantId, id: scene.id, image: file });
      if (scene.image) await deps.images.remove(scene.image);
      const [view] = await views(auth, [await requireScene(auth, scene.id)]);
      return view!;
    },

    async removeImage(auth: Caller, id: string): Promise<SceneView> {
      assertMay(auth, 'write');
      const scene = await requireScene(auth, id);
      await repo.setImage({ tenantId: auth.tenantId, id: scene.id, image: null });
      if (scene.image) await deps.images.remove(scene.image);
      const [view] = await views(auth, [{ ...scene, image: null }]);
      return view!;
    },

    /** A stored scene picture by its file name; undefined for a name the store never made or no longer has. */
    async imageFile(file: string): Promise<{ data: Buffer; contentType: string } | undefined> {
      const data = await deps.images.read(file);
      return data ? { data, contentType: storedImageType(file) } : undefined;
    },

    async removeSlice(auth: Caller, partId: string): Promise<void> {
      assertMay(auth, 'write');
      const part = await repo.part({ tenantId: auth.tenantId, id: toId(partId) });
      if (!part) denyAccess();
      await requireScene(auth, part.sceneId);
      const gone = await repo.removePart({ tenantId: auth.tenantId, partId: part.id, sceneId: part.sceneId, gatewayId: part.gatewayId });
      if (gone?.image) await deps.images.remove(gone.image);
      await changedOnGateways(auth, [part.gatewayId]);
    },

    async manuals(auth: Caller, projectId: string): Promise<ManualScene[]> {
      const project = await deps.access.requireProject(auth, projectId);
      const rows = await repo.ofProject({ tenantId: auth.tenantId, projectId: project.id, kinds: ['manual', 'sequence'] });
      const parts = await repo.parts({ tenantId: auth.tenantId, sceneIds: rows.map((r) => r.id) });
      return rows.map((r) => ({
        id: String(r.id),
        name: r.name,
        kind: r.kind as ManualScene['kind'],
        gatewayIds: parts.filter((p) => p.sceneId === r.id).map((p) => String(p.gatewayId)),
      }));
    },

    execute,

    async runs(auth: Caller, body: SceneRunsBody): Promise<SceneRunPage> {
      const scene = await requireScene(auth, body.id);
      const { rows, total } = await repo.runs({ tenantId: auth.tenantId, sceneId: scene.id, ...paging(body) });
      return { total, list: [...runsOf(rows).values()] };
    },

    /** Every run the gateways will start in a project over `days` local days from `from`. */
    async week(auth: Caller, body: SceneWeekBody): Promise<SceneWeekRun[]> {
      const project = await deps.access.requireProject(auth, body.projectId);
      const days = body.days ?? 7;
      const start = Date.parse(`${body.from}T00:00:00Z`);
      if (Number.isNaN(start)) throw new AppError(100001, 'from');
      const last = new Date(start + (days - 1) * DAY).toISOString().slice(0, 10);
      const rows = await repo.ofProject({ tenantId: auth.tenantId, projectId: project.id, kinds: TIMED_SCENE_KINDS });
      const parts = await repo.parts({ tenantId: auth.tenantId, sceneIds: rows.map((r) => r.id) });
      const holidaysOf = holidaysCache();
      const runs: SceneWeekRun[] = [];
      for (const part of parts) {
        const scene = rows.find((r) => r.id === part.sceneId)!;
        const place = placeOf(part);
        const timezone = place.timezone ?? 'UTC';
        const { schedules } = partConfig(planOf(scene, part.number));
        const holidays = await holidaysOf(part.projectId);
        for (const schedule of schedules) {
          // A day either side, so every time zone's local days are covered; then kept by local date.
          for (const at of scheduleRuns(schedule, place, holidays, start - DAY, start + (days + 1) * DAY)) {
            const date = localDate(at, timezone);
            if (date < body.from || date > last) continue;
            runs.push({
              sceneId: String(scene.id),
              name: scene.name,
              kind: scene.kind as SceneKind,
              gatewayId: String(part.gatewayId),
              gatewayName: part.gatewayName,
              at,
              timezone,
              then: partOfGatewayScene(schedule.scene).then,
            });
          }
        }
      }
      return runs.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
    },

    async settings(auth: Caller, projectId: string): Promise<SceneSettings> {
      const project = await deps.access.requireProject(auth, projectId);
      return { projectId: String(project.id), ...(await repo.settings({ projectId: project.id })) };
    },

    async saveSettings(auth: Caller, body: SceneSettings): Promise<SceneSettings> {
      assertMay(auth, 'write');
      const project = await deps.access.requireProject(auth, body.projectId);
      const dates = body.holidays.map((h) => h.date);
      if (new Set(dates).size !== dates.length || dates.some((d) => Number.isNaN(Date.parse(`${d}T00:00:00Z`))))
        throw new AppError(100001, 'holidays');
      await repo.saveSettings({
        projectId: project.id,
        holidays: body.holidays.map((h) => ({ date: h.date, name: h.name.trim() })),
        overrideMin: body.overrideMin,
      });
      const gatewayIds = await repo.projectGateways({ tenantId: auth.tenantId, projectId: project.id });
      await changedOnGateways(auth, gatewayIds);
      return { projectId: String(project.id), ...(await repo.settings({ projectId: project.id })) };
    },

    async panelKeys(auth: Caller, panelId: string): Promise<PanelKeys> {
      const panel = await repo.device({ tenantId: auth.tenantId, id: toId(panelId) });
      if (!panel || !seesMap(auth, panel.mapId)) denyAccess();
      return (await repo.panelKeys({ panelId: panel.id })).map((k) => ({ key: k.key, sceneId: String(k.sceneId), sceneName: k.sceneName }));
    },

    async inputScene(auth: Caller, body: InputSceneBody): Promise<PanelKeys> {
      assertMay(auth, 'write');
      const panel = await repo.device({ tenantId: auth.tenantId, id: toId(body.panelId) });
      if (!panel || !seesMap(auth, panel.mapId)) denyAccess();
      if (!inFamily('scenePanel', panel.type)) throw new AppError(100209);
      if (body.sceneId !== null) {
        const scene = await requireScene(auth, body.sceneId);
        if (TIMED_SCENE_KINDS.includes(scene.kind as SceneKind)) throw new AppError(310007);
        const parts = await repo.parts({ tenantId: auth.tenantId, sceneIds: [scene.id] });
        if (!parts.some((p) => p.gatewayId === panel.gatewayId)) throw new AppError(310013);
      }
      await repo.bindPanelKey({ panelId: panel.id, key: body.key, sceneId: body.sceneId === null ? null : toId(body.sceneId) });
      await changedOnGateways(auth, [panel.gatewayId]);
      return (await repo.panelKeys({ panelId: panel.id })).map((k) => ({ key: k.key, sceneId: String(k.sceneId), sceneName: k.sceneName }));
    },

    async executeAuto(auth: Caller, body: ExecuteAutoBody): Promise<ExecuteAutoResult> {
      assertMay(auth, 'control');
      const ids = [...new Set(body.deviceIds.map(toId))];
      const rows = await repo.devicesWithGateways({ tenantId: auth.tenantId, ids });
      if (rows.length !== ids.length || rows.some((r) => !seesMap(auth, r.mapId))) denyAccess();
      const byGateway = new Map<bigint, typeof rows>();
      for (const row of rows) byGateway.set(row.gatewayId, [...(byGateway.get(row.gatewayId) ?? []), row]);
      let released = 0;
      const parts = await Promise.all(
        [...byGateway.values()].map(async (devices) => {
          const { gatewayId, mac, gatewayName } = devices[0]!;
          const base = { gatewayId: String(gatewayId), gatewayName };
          if (!deps.link) return { ...base, code: 100101 };
          const outcome = await deps.link.bus.send(
            mac,
            'devices.auto',
            { addrs: devices.map((d) => d.addr) },
            deps.commandTimeoutMs === undefined ? undefined : { timeoutMs: deps.commandTimeoutMs },
          );
          if (outcome.state !== 'succeeded') return { ...base, code: outcome.errorCode };
          released += outcome.result.released.length;
          return { ...base, code: 0 };
        }),
      );
      return { released, parts };
    },

    async linkages(auth: Caller, mapId: string): Promise<SensorLinkageView[]> {
      const map = await deps.access.requireMap(auth, mapId);
      const rows = await repo.linkagesOnMap({ tenantId: auth.tenantId, mapId: map.id });
      return rows.map(linkageView);
    },

    async saveLinkage(auth: Caller, body: SensorLinkage): Promise<SensorLinkageView> {
      assertMay(auth, 'write');
      const sensor = await repo.device({ tenantId: auth.tenantId, id: toId(body.sensorId) });
      if (!sensor || !seesMap(auth, sensor.mapId)) denyAccess();
      if (!inFamily('motion', sensor.type) && !inFamily('daylight', sensor.type)) throw new AppError(100209);
      const [group] = await repo.groupFacts({ tenantId: auth.tenantId, ids: [toId(body.groupId)] });
      if (!group || !seesMap(auth, group.mapId)) denyAccess();
      if (group.gatewayId !== sensor.gatewayId) throw new AppError(100211);
      // The linkages are listed and managed per map: a sensor on no map would drive lights nobody can see.
      if (sensor.mapId === null) throw new AppError(310014);
      const saved = await repo.saveLinkage({
        tenantId: auth.tenantId,
        sensorId: sensor.id,
        mapId: sensor.mapId,
        gatewayId: sensor.gatewayId,
        groupId: group.id,
        onDetectPercent: body.onDetectPercent,
        onClearPercent: body.onClearPercent,
        holdS: body.holdS,
        lux: body.lux,
        at: clock.now(),
      });
      if (!saved) throw new AppError(310014);
      deps.gateways.pushConfig({ tenantId: auth.tenantId, gatewayIds: [sensor.gatewayId] });
      return linkageView(saved);
    },

    async removeLinkage(auth: Caller, sensorId: string): Promise<void> {
      assertMay(auth, 'write');
      const sensor = await repo.device({ tenantId: auth.tenantId, id: toId(sensorId) });
      if (!sensor || !seesMap(auth, sensor.mapId)) denyAccess();
      if (!(await repo.linkage({ tenantId: auth.tenantId, sensorId: sensor.id }))) denyAccess();
      await repo.removeLinkage({ tenantId: auth.tenantId, sensorId: sensor.id });
      await changedOnGateways(auth, [sensor.gatewayId]);
    },

    /** Records the runs gateways report (the gateway link's up/event). */
    onUp(message: DecodedUp): Promise<void> | undefined {
      if (message.channel !== 'event' || message.message.type !== 'scene') return undefined;
      return recordGatewayRun(message.mac, message.message);
    },
  };
}
export type ScenesService = ReturnType<typeof createScenesService>;

function linkageView(row: Awaited<ReturnType<ScenesRepo['linkagesOnMap']>>[number]): SensorLinkageView {
  const { linkage } = row;
  return {
    sensorId: String(linkage.sensorId),
    groupId: String(linkage.groupId),
    onDetectPercent: linkage.onDetectPercent,
    onClearPercent: linkage.onClearPercent,
    holdS: linkage.holdS,
    lux: linkage.lux,
    sensorName: row.sensorName,
    groupName: row.groupName,
    gatewayId: String(row.gatewayId),
    onGateway: linkage.version > 0 && (row.syncedVersion ?? 0) >= linkage.version,
  };
}

/** What a linked group does at a level: 0 switches it off. */
const levelAction = (percent: number) => (percent === 0 ? { on: false } : { on: true, level: percentToLevel(percent) });

function memberOf(m: MemberRow) {
  return m.deviceId !== null
    ? { type: 'device' as const, id: String(m.deviceId), action: m.action }
    : { type: 'group' as const, id: String(m.groupId), action: m.action };
}

/** The scenes, schedules, panel keys, holidays and override timeout a gateway runs. */
export function sceneConfigSource(repo: ScenesRepo): GatewayConfigSource {
  return async (q) => {
    const [{ parts, members }, panelKeys, projectId, linkages] = await Promise.all([
      repo.gatewayParts(q),
      repo.gatewayPanelKeys({ gatewayId: q.gatewayId }),
      repo.gatewayProject(q),
      repo.gatewayLinkages(q),
    ]);
    const configs = parts.map(({ part, scene }) =>
      partConfig(
        planOf(
          scene,
          part.number,
          members
            .filter((m) => m.sceneId === scene.id)
            .map((m) => ({ step: m.step, target: m.addr !== null ? { device: m.addr } : { group: m.groupNumber! }, action: m.action })),
        ),
      ),
    );
    const settings = projectId === null ? { holidays: [], overrideMin: 0 } : await repo.settings({ projectId });
    return {
      scenes: configs.flatMap((c) => c.scenes),
      schedules: configs.flatMap((c) => c.schedules),
      holidays: settings.holidays.map((h) => h.date),
      panelKeys: panelKeys.map((k) => ({ panel: k.panel, key: k.key, scene: gatewaySceneId(k.number, 'start') })),
      linkages: linkages.map((l) => ({
        sensor: l.sensor,
        targets: [{ group: l.group }],
        onDetect: levelAction(l.onDetectPercent),
        onClear: levelAction(l.onClearPercent),
        holdS: l.holdS,
        ...(l.lux !== null ? { luxAbove: l.lux } : {}),
      })),
      ...(settings.overrideMin > 0 ? { overrideMin: settings.overrideMin } : {}),
    };
  };
}
