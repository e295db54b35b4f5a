import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { ProColumns } from '@ant-design/pro-components';
import { DEVICE_TYPE_CODE_LIST, type Device, type DisplayState } from '@lumigrid/contract/browser';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { typeNameKey } from './param-fields.ts';
import { choiceFilter } from '../../components/search-filters.ts';

export const displayTag = (t: TFunction, display: DisplayState) => (
  <Tag color={DISPLAY_TAG_COLOUR[display]} data-testid={`display-${display}`}>
    {t(`deviceControl.display.${display}`)}
  </Tag>
);

export const typeName = (t: TFunction, type: number) => t(typeNameKey(type));

export const measured = (value: number | null, empty: string) => (value === null ? empty : String(Math.round(value * 100) / 100));

/** The map a device is on; for one on no map, the map its gateway is on, where it waits to be placed. */
export const placeOf = (t: TFunction, device: Pick<Device, 'mapName'>, gatewayMapName?: string) =>
  device.mapName ?? (gatewayMapName ? t('deviceConfig.notPlacedOn', { map: gatewayMapName }) : t('deviceConfig.outmap'));

/** The search fields both device tables open with: a keyword and a device type. */
export const keywordAndTypeFilters = (t: TFunction): ProColumns<Device>[] => [
  {
    title: t('deviceConfig.field.keyword'),
    dataIndex: 'keyword',
    hideInTable: true,
    fieldProps: { placeholder: t('deviceConfig.field.keywordPlaceholder'), maxLength: 50 },
  },
  choiceFilter(t('deviceConfig.field.type'), 'type', DEVICE_TYPE_CODE_LIST, (code) => typeName(t, code)),
];
