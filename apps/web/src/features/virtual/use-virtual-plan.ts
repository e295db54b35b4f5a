import { useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { VirtualDevice } from '@lumigrid/contract/browser';
import { useUnrelatedVirtuals, useUpdateVirtual } from './api.ts';

/** What the device map needs for a map's virtual devices: the list, the selected one, and moving one. */
export function useVirtualPlan(mapId: string | undefined) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useUnrelatedVirtuals(mapId);
  const update = useUpdateVirtual();
  const [selectedId, setSelectedId] = useState<string>();
  useEffect(() => setSelectedId(undefined), [mapId]);
  const devices: VirtualDevice[] = list.data ?? [];
  const move = (id: string, position: { x: number; y: number }) =>
    update.mutate({ id, ...position }, { onSuccess: () => void message.success(t('virtualDevices.moved')) });
  return {
    devices,
    placed: devices.filter((d) => d.x !== null),
    selected: devices.find((d) => d.id === selectedId),
    selectedId,
    select: setSelectedId,
    move,
  };
}
