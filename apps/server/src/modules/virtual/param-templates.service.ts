import {
  TEMPLATE_LIMITS,
  classFields,
  deviceType,
  errorMessage,
  templateNameProblem,
  templateParamsProblems,
  type DeviceParams,
  type ParamApplyResult,
  type ParamClass,
  type ParamTemplate,
  type ParamTemplateApplyBody,
  type ParamTemplateBuildBody,
  type ParamTemplateUpdateBody,
} from '@lumigrid/contract';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import { denyAccess, toId, visibleMapIds } from '../access/access.ts';
import type { TemplateUsage, VirtualRepo } from './virtual.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope' | 'lang'>;

export function mapTemplate(row: TemplateUsage): ParamTemplate {
  return {
    id: String(row.id),
    name: row.name,
    kind: row.kind,
    deviceType: row.deviceType,
    params: row.params,
    virtualDevices: row.virtualDevices,
    devices: row.devices,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The first problem of a template's parameters as the error to answer, naming the field. */
function checkedParams(typeCode: number, kind: ParamClass, params: Readonly<Record<string, unknown>>): DeviceParams {
  const [problem] = templateParamsProblems(typeCode, kind, params);
  if (problem) throw new AppError(problem.code, problem.field);
  // templateParamsProblems has checked every value's shape and range.
  return params as DeviceParams;
}

/**
 * Parameter templates (the parameter sets of /system/functionParameter and /system/interfaceParameter): named,
 * reusable sets for one device type, owned by the account, applied to devices through set_device_params'
 * own path so the ranges, the gateway's answer and its messages are the same as setting one device by hand.
 */
export function createParamTemplatesService(deps: { repo: VirtualRepo; devices: Pick<DevicesService, 'setParams'> }) {
  const { repo } = deps;

  async function requireTemplate(auth: Caller, id: string | bigint): Promise<TemplateUsage> {
    const [row] = await repo.templates({ tenantId: auth.tenantId, ids: [typeof id === 'bigint' ? id : toId(id)] });
    if (!row) denyAccess();
    return row;
  }

  function checkedName(raw: string): string {
    const name = raw.trim();
    const problem = templateNameProblem(name);
    if (problem) throw new AppError(problem, 'name');
    return name;
  }

  return {
    requireTemplate,

    /** GET vir/v1/get_param_templates/{type}: 0 for every type; `kind` narrows to one set. */
    async list(auth: Caller, type: number, kind?: ParamClass): Promise<ParamTemplate[]> {
      await repo.dropOrphans({ tenantId: auth.tenantId });
      return (await repo.templates({ tenantId: auth.tenantId, type: type || undefined, kind })).map(mapTemplate);
    },

    async get(auth: Caller, id: string): Promise<ParamTemplate> {
      return mapTemplate(await requireTemplate(auth, id));
    },

    /** POST vir/v1/build_param_template. */
    async build(auth: Caller, body: ParamTemplateBuildBody): Promise<ParamTemplate> {
      assertMay(auth, 'write');
      const name = checkedName(body.name);
      if (!deviceType(body.deviceType)) throw new AppError(100208, 'deviceType');
      if (classFields(body.deviceType, body.kind).length === 0) throw new AppError(100209, 'deviceType');
      const params = checkedParams(body.deviceType, body.kind, body.params);
      if ((await repo.countTemplates({ tenantId: auth.tenantId })) >= TEMPLATE_LIMITS.perAccount) throw new AppError(100707);
      return await duplicateAs(110007, async () => {
        const id = await repo.insertTemplate({ tenantId: auth.tenantId, name, kind: body.kind, deviceType: body.deviceType, params });
        return mapTemplate(await requireTemplate(auth, id));
      });
    },

    /** POST vir/v1/update_param_template: the type and set stay; the parameters are replaced whole. */
    async update(auth: Caller, body: ParamTemplateUpdateBody): Promise<ParamTemplate> {
      assertMay(auth, 'write');
      const row = await requireTemplate(auth, body.id);
      const name = body.name === undefined ? undefined : checkedName(body.name);
      const params = body.params === undefined ? undefined : checkedParams(row.deviceType, row.kind, body.params);
      await duplicateAs(110007, async () => {
        await repo.updateTemplate({ tenantId: auth.tenantId, id: row.id, name, params });
      });
      return mapTemplate(await requireTemplate(auth, row.id));
    },

    /** DELETE vir/v1/delete_param_template/{id}: 260022 while a virtual device carries it or devices run it. */
    async remove(auth: Caller, id: string): Promise<null> {
      assertMay(auth, 'write');
      await repo.dropOrphans({ tenantId: auth.tenantId });
      const row = await requireTemplate(auth, id);
      if (row.virtualDevices > 0 || row.devices > 0) throw new AppError(260022);
      try {
        await repo.removeTemplate({ tenantId: auth.tenantId, id: row.id });
      } catch (error) {
        // Linked between the check and the delete.
        if (isForeignKeyViolation(error)) throw new AppError(260022);
        throw error;
      }
      return null;
    },

    /**
     * POST vir/v1/apply_param_template: every device of the call is set at once (each gateway paces its radio);
     * one result per device, in the order asked. Devices of another account refuse the whole call (110011).
     */
    async apply(auth: Caller, body: ParamTemplateApplyBody): Promise<ParamApplyResult[]> {
      assertMay(auth, 'write');
      const template = await requireTemplate(auth, body.id);
      const ids = [...new Set(body.deviceIds.map(toId))];
      const facts = await repo.deviceFacts({ tenantId: auth.tenantId, ids, mapIds: visibleMapIds(auth) });
      if (facts.length !== ids.length) denyAccess();
      const byId = new Map(facts.map((f) => [f.id, f]));
      return Promise.all(
        ids.map(async (id): Promise<ParamApplyResult> => {
          const device = byId.get(id)!;
          const result = (code: number) => ({
            deviceId: String(id),
            name: device.name,
            code,
            msg: code === 0 ? '' : errorMessage(code as Parameters<typeof errorMessage>[0], auth.lang),
          });
          if (device.type !== template.deviceType) return result(100702);
          try {
            await deps.devices.setParams(auth, { id: String(id), params: template.params });
            await repo.linkDeviceTemplate({ deviceId: id, kind: template.kind, templateId: template.id });
            return result(0);
          } catch (error) {
            if (error instanceof AppError) return result(error.code);
            throw error;
          }
        }),
      );
    },
  };
}
export type ParamTemplatesService = ReturnType<typeof createParamTemplatesService>;
