import type { FastifyBaseLogger } from 'fastify';
import type {
  MapAddBody,
  MapDevice,
  MapDevicePage,
  MapDevicesBody,
  MapImage,
  MapInfo,
  MapMoveBody,
  MapSearchBody,
  MapSearchPage,
  MapUpdateBody,
} from '@lumigrid/contract';
import { PROJECT_LIMITS } from '@lumigrid/contract';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { cleanName } from './access.ts';
import { denyAccess, found, seesMap, toId, visibleProjectIds } from '../access/access.ts';
import type { MapDevicesPort } from './map-devices-port.ts';
import { prepareMapImage, type MapImageStore, type PreparedImage, type RenderQueue } from './map-image.ts';
import { sniffType } from '../../lib/picture.ts';
import { mapImageUrl, mapMap } from './mappers.ts';
import type { MapImageRow, MapRow, MapsRepo } from './maps.repo.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import type { ProjectsService } from './projects.service.ts';
import { assertMay } from '../../http/authority.ts';
import { paging } from '../../lib/paging.ts';
import type { ProjectAccess } from './project-access.ts';

type Caller = Pick<AuthContext, 'userId' | 'tenantId' | 'operateAuth' | 'lang' | 'scope'>;

/** A render still 'rendering' after this long was lost with its server node: its upload answers 100013. */
const ABANDONED_RENDER_MS = 5 * 60_000;

/** A promise's value if it settles within ms; undefined while it is still pending then (it keeps running). */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createMapsService(deps: {
  repo: MapsRepo;
  projects: Pick<ProjectsService, 'ensureDefaults'>;
  /** The project, building and map rows a caller may touch (the access module decides). */
  access: ProjectAccess;
  devices: MapDevicesPort;
  store: MapImageStore;
  /** Where pdf renders wait their turn, bounded per account and overall. */
  renderQueue: RenderQueue;
  clock: Clock;
  /** Where a floor plan the renderer could not read is told, with its cause. */
  logger?: Pick<FastifyBaseLogger, 'warn'>;
  /** How long an upload waits for a pdf's first page before answering 'rendering'. */
  renderAnswerWaitMs: number;
}) {
  const { repo, projects, devices, store, clock } = deps;
  const { renderAnswerWaitMs } = deps;

  const { requireBuilding, requireProject, requireMap } = deps.access;

  async function mapOut(auth: Caller, id: bigint): Promise<MapInfo> {
    const row = found(await repo.findMap({ tenantId: auth.tenantId, id }));
    const counts = await devices.deviceCounts({ tenantId: auth.tenantId, mapIds: [row.id] });
    return mapMap(row, counts.get(row.id) ?? 0);
  }

  /** An upload of the tenant that no other map uses, by the `image` name upload_map answered. */
  async function requireFreeImage(auth: Caller, file: string, mapId?: bigint) {
    const image = await repo.findFreeImage({ tenantId: auth.tenantId, file, mapId });
    if (!image) throw new AppError(100013);
    return image;
  }

  /** Deletes uploads no map took within the hour they are kept (every account's; also run on a timer). */
  async function sweepUnusedUploads(): Promise<number> {
    const files = await repo.sweepUnusedImagesAnyTenant({ before: new Date(clock.now().getTime() - PROJECT_LIMITS.unusedUploads.keptMs) });
    for (const file of files) await store.remove(file);
    return files.length;
  }

  /** Deletes a floor plan's row and file (after the map let go of it). */
  async function dropImage(auth: Caller, imageId: bigint | null) {
    if (imageId === null) return;
    const file = await repo.deleteImage({ tenantId: auth.tenantId, id: imageId });
    if (file) await store.remove(file);
  }

  /** Puts an uploaded plan on a map in place of the one it had. */
  async function putOnMap(auth: Caller, map: Pick<MapRow, 'id' | 'imageId'>, imageId: bigint) {
    await repo.updateMap({ tenantId: auth.tenantId, id: map.id, set: { imageId } });
    await dropImage(auth, map.imageId);
  }

  async function imageOut(auth: Caller, image: MapImageRow, mapId: bigint | null): Promise<MapImage> {
    return {
      image: image.file,
      url: mapImageUrl(image.file),
      state: image.state === 'rendering' ? 'rendering' : 'ready',
      width: image.width,
      height: image.height,
      size: image.size,
      contentType: image.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/png',
      sourceType: image.sourceType === 'application/pdf' || image.sourceType === 'image/jpeg' ? image.sourceType : 'image/png',
      map: mapId === null ? null : await mapOut(auth, mapId),
    };
  }

  /**
   * Keeps a slow pdf's upload as 'rendering' and finishes it when its first page is drawn: the file written,
   * its size stored and, when the upload named a map, put on it; 'failed' when it cannot be drawn.
   */
  async function renderLater(auth: Caller, pending: Promise<PreparedImage>, map: Pick<MapRow, 'id' | 'imageId'> | undefined) {
    const file = store.name('image/png');
    const row = await repo.insertImage({
      tenantId: auth.tenantId,
      uploadedBy: auth.userId,
      file,
      contentType: 'image/png',
      sourceType: 'application/pdf',
      width: 0,
      height: 0,
      size: 0,
      state: 'rendering',
      createdAt: clock.now(),
    });
    const finish = async () => {
      let drawn: PreparedImage;
      try {
        drawn = await pending;
      } catch (error) {
        const state = error instanceof AppError && error.code === 100022 ? 'too-heavy' : 'failed';
        await repo.finishImage({ id: row.id, set: { state } });
        return;
      }
      await store.write(file, drawn.data);
      const size = { width: drawn.width, height: drawn.height, size: drawn.data.length };
      await repo.finishImage({ id: row.id, set: size });
      if (map) await putOnMap(auth, map, row.id);
      // Ready last: whoever sees it ready finds the plan on its map too.
      await repo.finishImage({ id: row.id, set: { state: 'ready' } });
    };
    void finish().catch((err: unknown) => deps.logger?.warn({ err }, 'a slow floor plan could not be finished'));
    return row;
  }

  return {
    /** A map read through its project, as project_user/v1/{projectId}/maps/{mapId} names it. */
    async getMap(auth: Caller, projectId: string, mapId: string): Promise<MapInfo> {
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const pid = toId(projectId);
      const map = await requireMap(auth, mapId);
      if (map.projectId !== pid) denyAccess();
      return mapOut(auth, map.id);
    },

    async addMap(auth: Caller, body: MapAddBody): Promise<MapInfo> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const building = await requireBuilding(auth, body.buildId);
      const image = body.image ? await requireFreeImage(auth, body.image) : undefined;
      const row = await repo.insertMap({
        tenantId: auth.tenantId,
        projectId: building.projectId,
        buildId: building.id,
        name: cleanName(body.name),
        opacity: body.opacity ?? 100,
        imageId: image?.id ?? null,
      });
      if (!row) throw new AppError(110007);
      return mapOut(auth, row.id);
    },

    async updateMap(auth: Caller, body: MapUpdateBody): Promise<MapInfo> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = await requireMap(auth, body.id);
      let imageId: bigint | null | undefined;
      if (body.image === null) imageId = null;
      else if (body.image !== undefined) imageId = (await requireFreeImage(auth, body.image, map.id)).id;
      await duplicateAs(110007, () =>
        repo.updateMap({
          tenantId: auth.tenantId,
          id: map.id,
          set: { name: body.name === undefined ? undefined : cleanName(body.name), opacity: body.opacity, imageId },
        }),
      );
      if (imageId !== undefined && imageId !== map.imageId) await dropImage(auth, map.imageId);
      return mapOut(auth, map.id);
    },

    async deleteMap(auth: Caller, buildId: string, mapId: string): Promise<void> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const bid = toId(buildId);
      const map = await requireMap(auth, mapId);
      if (map.buildId !== bid) denyAccess();
      if (map.isDefault) throw new AppError(280011);
      if (await devices.mapHasDevices({ tenantId: auth.tenantId, mapId: map.id })) throw new AppError(280005);
      let deleted;
      try {
        deleted = await repo.deleteMap({ tenantId: auth.tenantId, id: map.id });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new AppError(280005);
        throw error;
      }
      if (deleted) await dropImage(auth, deleted.imageId);
    },

    /** Moves a map into another building of the account; its project follows the building. */
    async moveMap(auth: Caller, body: MapMoveBody): Promise<MapInfo> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = await requireMap(auth, body.id);
      const building = await requireBuilding(auth, body.buildId);
      if (building.id !== map.buildId) {
        await duplicateAs(110007, () =>
          repo.updateMap({ tenantId: auth.tenantId, id: map.id, set: { buildId: building.id, projectId: building.projectId } }),
        );
      }
      return mapOut(auth, map.id);
    },

    async searchMaps(auth: Caller, body: MapSearchBody): Promise<MapSearchPage> {
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      // Filter ids must be the caller's own: another account's id is refused, not silently empty.
      const projectId = body.projectId === undefined ? undefined : (await requireProject(auth, body.projectId)).id;
      const buildId = body.buildId === undefined ? undefined : (await requireBuilding(auth, body.buildId)).id;
      const { total, rows } = await repo.searchMaps({
        tenantId: auth.tenantId,
        projectIds: visibleProjectIds(auth),
        text: body.name?.trim() || undefined,
        projectId,
        buildId,
        ...paging(body),
      });
      const counts = await devices.deviceCounts({ tenantId: auth.tenantId, mapIds: rows.map((r) => r.id) });
      return {
        total,
        list: rows.map((r) => ({ ...mapMap(r, counts.get(r.id) ?? 0), projectName: r.projectName, buildName: r.buildName })),
      };
    },

    async listDevices(auth: Caller, body: MapDevicesBody): Promise<MapDevicePage> {
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = await requireMap(auth, body.mapId);
      return devices.devicesOn({ tenantId: auth.tenantId, mapId: map.id, name: body.name?.trim() || undefined, ...paging(body) });
    },

    async devicesOf(auth: Caller, mapId: string): Promise<MapDevice[]> {
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = await requireMap(auth, mapId);
      const { list } = await devices.devicesOn({ tenantId: auth.tenantId, mapId: map.id, offset: 0, limit: 10_000 });
      return list;
    },

    /** Removes a map's floor plan; the map stays. */
    async removeImage(auth: Caller, mapId: string): Promise<MapInfo> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = await requireMap(auth, mapId);
      if (map.imageId !== null) {
        await repo.updateMap({ tenantId: auth.tenantId, id: map.id, set: { imageId: null } });
        await dropImage(auth, map.imageId);
      }
      return mapOut(auth, map.id);
    },

    /**
     * Stores an uploaded floor plan (checked by its bytes, a pdf rendered to png) and, when a map id came
     * with it, puts it on that map in place of the old one.
     */
    async upload(auth: Caller, input: { data: Buffer; mapId?: string }): Promise<MapImage> {
      assertMay(auth, 'write');
      await projects.ensureDefaults(auth.tenantId, auth.lang);
      const map = input.mapId ? await requireMap(auth, input.mapId) : undefined;
      // Expired uploads go first, so they neither count against the quota nor wait for the timer.
      await sweepUnusedUploads();
      const unusedSince = new Date(clock.now().getTime() - PROJECT_LIMITS.unusedUploads.keptMs);
      if (!map && (await repo.countUnusedImages({ tenantId: auth.tenantId, since: unusedSince })) >= PROJECT_LIMITS.unusedUploads.max)
        throw new AppError(100019);
      const pending = prepareMapImage(input.data, {
        account: String(auth.tenantId),
        queue: deps.renderQueue,
        onRenderError: (err) => deps.logger?.warn({ err }, 'floor plan pdf could not be rendered'),
      });
      // A pdf still drawing after a moment is answered at once with state 'rendering'; upload_state follows it.
      const settled = sniffType(input.data) === 'application/pdf' ? await within(pending, renderAnswerWaitMs) : { value: await pending };
      if (!settled) return imageOut(auth, await renderLater(auth, pending, map), null);
      const prepared = settled.value;
      const file = await store.save(prepared);
      const image = await repo.insertImage({
        tenantId: auth.tenantId,
        uploadedBy: auth.userId,
        file,
        contentType: prepared.contentType,
        sourceType: prepared.sourceType,
        width: prepared.width,
        height: prepared.height,
        size: prepared.data.length,
        createdAt: clock.now(),
      });
      if (map) await putOnMap(auth, map, image.id);
      return imageOut(auth, image, map?.id ?? null);
    },

    /** GET map/v1/upload_state/{file}: a slow upload's state; 100013 once its pdf could not be drawn, 100022 when too heavy. */
    async uploadState(auth: Caller, file: string): Promise<MapImage> {
      assertMay(auth, 'write');
      const row = await repo.findImageByFile({ file });
      if (!row || row.tenantId !== auth.tenantId) denyAccess();
      // On a map, as the map; on none yet, for everyone of the account but another's limited sub-account.
      const mapId = (await repo.mapShowing({ tenantId: auth.tenantId, imageId: row.id }))?.id ?? null;
      if (mapId !== null ? !seesMap(auth, mapId) : auth.scope && row.uploadedBy !== auth.userId) denyAccess();
      const abandoned = row.state === 'rendering' && clock.now().getTime() - row.createdAt.getTime() > ABANDONED_RENDER_MS;
      if (row.state === 'too-heavy') throw new AppError(100022);
      if (row.state === 'failed' || abandoned) throw new AppError(100013);
      return imageOut(auth, row, mapId);
    },

    sweepUnusedUploads,

    /** A stored floor plan by file name, for the image route; the unguessable name is the key. */
    async imageFile(file: string): Promise<{ data: Buffer; contentType: string } | undefined> {
      const row = await repo.findImageByFile({ file });
      if (!row) return undefined;
      const data = await store.read(row.file);
      return data ? { data, contentType: row.contentType } : undefined;
    },
  };
}

export type MapsService = ReturnType<typeof createMapsService>;
