import { useQuery } from '@tanstack/react-query';
import {
  virtualEndpoints as V,
  type ParamClass,
  type ParamTemplateApplyBody,
  type ParamTemplateBuildBody,
  type ParamTemplateUpdateBody,
  type RelationBody,
  type VirtualBuildBody,
  type VirtualGatewaysParams,
  type VirtualUpdateBody,
} from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { deviceKeys } from '../devices/api.ts';

/** One key factory for templates and virtual devices; a relation also touches devices, groups and scenes. */
export const virtualKeys = {
  all: ['virtual'] as const,
  templates: (kind: ParamClass | undefined, type: number) => [...virtualKeys.all, 'templates', kind ?? 'all', type] as const,
  unrelated: (mapId: string) => [...virtualKeys.all, 'unrelated', mapId] as const,
  related: (mapId: string) => [...virtualKeys.all, 'related', mapId] as const,
  gateways: (p: VirtualGatewaysParams) => [...virtualKeys.all, 'gateways', p] as const,
  candidates: (id: string) => [...virtualKeys.all, 'candidates', id] as const,
};

/** The plain calls; every path and answer is the contract's. */
export const virtualApi = {
  templates: (type: number, kind: ParamClass | undefined, signal?: AbortSignal) =>
    call(V.templates, { params: { type }, query: kind ? { kind } : {} }, { signal }),
  buildTemplate: (body: ParamTemplateBuildBody) => call(V.buildTemplate, { body }),
  updateTemplate: (body: ParamTemplateUpdateBody) => call(V.updateTemplate, { body }),
  deleteTemplate: (id: string) => call(V.deleteTemplate, { params: { id } }),
  /** Silent: the apply dialog shows a failed batch beside its devices. */
  apply: (body: ParamTemplateApplyBody) => call(V.applyTemplate, { body }, { silent: true }),
  unrelated: (mapId: string, signal?: AbortSignal) => call(V.unrelated, { params: { mapId, gatewayId: '0' } }, { signal }),
  related: (mapId: string, signal?: AbortSignal) => call(V.related, { params: { mapId } }, { signal }),
  gateways: (p: VirtualGatewaysParams, signal?: AbortSignal) => call(V.gateways, { params: p }, { signal }),
  build: (body: VirtualBuildBody) => call(V.buildVirtual, { body }),
  update: (body: VirtualUpdateBody) => call(V.updateVirtual, { body }),
  remove: (mapId: string, id: string) => call(V.deleteVirtual, { params: { mapId, id } }),
  candidates: (id: string, signal?: AbortSignal) => call(V.candidates, { body: { id } }, { signal }),
  relate: (body: RelationBody) => call(V.relate, { body }),
  unrelate: (id: string) => call(V.unrelate, { body: { id } }),
};

export function useParamTemplates(kind: ParamClass | undefined, type = 0) {
  return useQuery({
    queryKey: virtualKeys.templates(kind, type),
    queryFn: ({ signal }) => virtualApi.templates(type, kind, signal),
  });
}

export const useUnrelatedVirtuals = (mapId: string | undefined) =>
  useApiQuery(virtualKeys.unrelated, virtualApi.unrelated, mapId || undefined);

export const useRelatedVirtuals = (mapId: string | undefined) => useApiQuery(virtualKeys.related, virtualApi.related, mapId || undefined);

export const useVirtualGateways = (p: VirtualGatewaysParams | undefined) => useApiQuery(virtualKeys.gateways, virtualApi.gateways, p);

export const useRelationCandidates = (id: string | undefined) =>
  useApiQuery(virtualKeys.candidates, virtualApi.candidates, id || undefined);

/** A mutation that refreshes every template and virtual device query when it is done. */
// A relation (`alsoDevices`) moves a real device and changes its groups and scenes.
const useVirtualMutation = <I, O>(fn: (input: I) => Promise<O>, alsoDevices = false) =>
  useRefreshingMutation(fn, alsoDevices ? [virtualKeys.all, deviceKeys.all] : [virtualKeys.all]);

export const useBuildTemplate = () => useVirtualMutation(virtualApi.buildTemplate);
export const useUpdateTemplate = () => useVirtualMutation(virtualApi.updateTemplate);
export const useDeleteTemplate = () => useVirtualMutation(virtualApi.deleteTemplate);
export const useBuildVirtual = () => useVirtualMutation(virtualApi.build);
export const useUpdateVirtual = () => useVirtualMutation(virtualApi.update);
export const useDeleteVirtual = () => useVirtualMutation((v: { mapId: string; id: string }) => virtualApi.remove(v.mapId, v.id));
export const useRelate = () => useVirtualMutation(virtualApi.relate, true);
export const useUnrelate = () => useVirtualMutation(virtualApi.unrelate, true);
