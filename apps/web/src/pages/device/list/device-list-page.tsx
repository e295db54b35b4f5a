import { useState } from 'react';
import { Segmented, Space, Tag, Typography } from 'antd';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../../components/page-container.tsx';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DEVICE_LIMITS,
  DISPLAY_STATES,
  FAULT_CODES,
  TYPE_STATUS,
  type Device,
  type DeviceListBody,
  type DisplayState,
} from '@lumigrid/contract/browser';
import { deviceConfigApi, useDeviceList, useDeviceStatusPage } from '../../../features/device-config/api.ts';
import { DeviceStateStrip } from '../../../features/device-config/device-state-strip.tsx';
import { deviceListFilters, reportFilters, stateScope, type DeviceSearchForm } from '../../../features/device-config/list-filters.ts';
import { useSiteTimes } from '../../../features/projects/site-time.ts';
import { displayTag, measured, placeOf, typeName, keywordAndTypeFilters } from '../../../features/device-config/columns.tsx';
import { faultKey } from '../../../features/device-config/param-fields.ts';
import { useDeleteDevice } from '../../../features/device-config/use-delete-device.tsx';
import { ALL_GATEWAYS, useGatewayMapNames, useGatewayPage } from '../../../features/gateways/api.ts';
import { MapPathSelect } from '../../../features/projects/map-path-select.tsx';
import { GroupFilterSelect } from '../../../features/devices/group-filter-select.tsx';
import { EmptyHint } from '../../../components/empty-hint.tsx';
import { remainingLifeColumn } from '../../../features/library/life-column.tsx';
import { markerLabel } from '../../../components/device-markers/marker-model.ts';
import { useDownload } from '../../../api/download.ts';
import { tablePaging } from '../../../components/table-paging.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { useUserMay } from '../../../components/use-user-may.ts';
import { queryTableRows } from '../../../components/query-table-rows.ts';

/** The measurements a device may report, in the order a reading is written, with their units. */
const READINGS = [
  { key: 'voltage', unit: 'V' },
  { key: 'current', unit: 'A' },
  { key: 'power', unit: 'W' },
  { key: 'energyWh', unit: 'Wh' },
  { key: 'illumination', unit: 'lx' },
  { key: 'battery', unit: '%' },
  { key: 'temperature', unit: '°C' },
] as const;

const DISPLAYS: readonly DisplayState[] = DISPLAY_STATES;

/**
 * /device/list/list and /device/list/status (spec section 2): one filtered, paged table of the account's
 * devices; the list view shows where each device is and what it runs, the status view what it reported.
 */
export default function DeviceListPage({ view }: { view: 'list' | 'status' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editable = useUserMay('write');
  const [query, setQuery] = useState<DeviceListBody>({ page: 1, pageSize: DEVICE_LIMITS.pageSize.default });
  // The router keeps this page mounted between the views; each starts with its own empty form, so unfiltered
  // (the list has no fault filter to show one carried over).
  const [queryView, setQueryView] = useState(view);
  if (queryView !== view) {
    setQueryView(view);
    setQuery({ page: 1, pageSize: query.pageSize });
  }
  const listPage = useDeviceList(query, view === 'list');
  const statusPage = useDeviceStatusPage(query, view === 'status');
  const devices = view === 'list' ? listPage : statusPage;
  const statusReport = useDownload(() => deviceConfigApi.statusReport(reportFilters(query), `${t('deviceConfig.statusReportFile')}.xlsx`));
  const gateways = useGatewayPage(ALL_GATEWAYS);
  const deletion = useDeleteDevice();
  const empty = t('common.empty');
  const siteTime = useSiteTimes();
  const gatewayProject = new Map((gateways.data?.list ?? []).map((g) => [g.id, g.projectId]));

  const filters: ProColumns<Device>[] = [
    ...keywordAndTypeFilters(t),
    {
      title: t('deviceConfig.field.display'),
      dataIndex: 'display',
      hideInTable: true,
      valueType: 'select',
      valueEnum: Object.fromEntries(DISPLAYS.map((d) => [d, { text: t(`deviceControl.display.${d}`) }])),
    },
    {
      title: t('deviceConfig.field.fault'),
      dataIndex: 'fault',
      hideInTable: true,
      hideInSearch: view !== 'status',
      valueType: 'select',
      fieldProps: { 'data-testid': 'device-status-fault' },
      valueEnum: Object.fromEntries(Object.values(FAULT_CODES).map((code) => [String(code), { text: t(faultKey(code)) }])),
    },
    {
      title: t('deviceConfig.field.gateway'),
      dataIndex: 'gatewayId',
      hideInTable: true,
      valueType: 'select',
      valueEnum: Object.fromEntries((gateways.data?.list ?? []).map((g) => [g.id, { text: g.name || g.mac }])),
    },
    { title: t('deviceConfig.field.place'), dataIndex: 'place', hideInTable: true, renderFormItem: () => <MapPathSelect partial /> },
    // The groups of the map chosen above (a group lives on one map).
    {
      title: t('deviceConfig.field.group'),
      dataIndex: 'groupId',
      hideInTable: true,
      renderFormItem: (_, __, form) => <GroupFilterSelect form={form} placeField="place" />,
    },
  ];

  const name: ProColumns<Device> = {
    title: t('deviceConfig.field.name'),
    dataIndex: 'name',
    search: false,
    width: 190,
    fixed: 'left',
    render: (_, row) => <Typography.Text style={{ wordBreak: 'break-word' }}>{markerLabel(row.name)}</Typography.Text>,
  };
  // The list shows the MAC under the name: one column fewer, so every column fits at 1440 px in every language.
  const nameAndMac: ProColumns<Device> = {
    ...name,
    render: (_, row) => (
      <Space direction="vertical" size={0}>
        <Typography.Text style={{ wordBreak: 'break-word' }}>{markerLabel(row.name)}</Typography.Text>
        <Typography.Text type="secondary" copyable={{ text: row.addr }} style={{ fontSize: 12 }}>
          {row.addr}
        </Typography.Text>
      </Space>
    ),
  };
  const gatewayMaps = useGatewayMapNames();
  const type: ProColumns<Device> = {
    title: t('deviceConfig.field.type'),
    dataIndex: 'type',
    search: false,
    width: 130,
    render: (_, row) => typeName(t, row.type),
  };
  const lastUpdate: ProColumns<Device> = {
    title: t('deviceConfig.field.lastUpdate'),
    dataIndex: 'lastUpdate',
    search: false,
    width: 160,
    render: (_, row) =>
      siteTime(row.mapId ? { mapId: row.mapId } : { projectId: gatewayProject.get(row.gatewayId) }, row.lastUpdate, 'second'),
  };
  // What a device measured, with units, in one column: a light reports electrical values, a sensor lux,
  // battery and temperature, so separate columns would be mostly empty and push the table off the screen.
  const readings: ProColumns<Device> = {
    title: t('deviceConfig.field.readings'),
    dataIndex: 'readings',
    search: false,
    width: 230,
    render: (_, row) => {
      const values = READINGS.filter(({ key }) => row[key] !== null).map(({ key, unit }) => (
        <span key={key} title={t(`deviceConfig.field.${key}`)} data-testid={`reading-${key}`} style={{ whiteSpace: 'nowrap' }}>
          {measured(row[key], empty)} {unit}
        </span>
      ));
      return values.length ? (
        <Space size={[12, 0]} wrap>
          {values}
        </Space>
      ) : (
        empty
      );
    },
  };

  const listColumns: ProColumns<Device>[] = [
    nameAndMac,
    type,
    { title: t('deviceConfig.field.gateway'), dataIndex: 'gatewayName', search: false, width: 140, ellipsis: true },
    {
      title: t('deviceConfig.field.place'),
      dataIndex: 'mapName',
      search: false,
      width: 150,
      render: (_, row) => placeOf(t, row, gatewayMaps.get(row.gatewayId)),
    },
    {
      title: t('deviceConfig.field.group'),
      dataIndex: 'groupNames',
      search: false,
      width: 140,
      ellipsis: true,
      render: (_, row) => row.groupNames.join(', ') || empty,
    },
    {
      title: t('deviceConfig.field.firmware'),
      dataIndex: 'firmware',
      search: false,
      width: 120,
      render: (_, row) => row.firmware || empty,
    },
    {
      title: t('deviceConfig.field.model'),
      dataIndex: 'model',
      search: false,
      width: 150,
      ellipsis: true,
      render: (_, row) => row.model || empty,
    },
    lastUpdate,
    {
      title: t('deviceConfig.actions'),
      valueType: 'option',
      fixed: 'right',
      width: 140,
      render: (_, row) => [
        <Link key="configure" to={`/device/config/detail?id=${row.id}`}>
          {t('deviceConfig.configure')}
        </Link>,
        editable && (
          <Typography.Link key="delete" type="danger" onClick={() => deletion.ask(row)} data-testid={`delete-${row.id}`}>
            {t('deviceConfig.delete')}
          </Typography.Link>
        ),
      ],
    },
  ];

  const statusColumns: ProColumns<Device>[] = [
    name,
    type,
    {
      title: t('deviceConfig.field.display'),
      dataIndex: 'display',
      search: false,
      width: 130,
      render: (_, row) => displayTag(t, row.display),
    },
    {
      title: t('deviceConfig.field.online'),
      dataIndex: 'typeStatus',
      search: false,
      width: 100,
      render: (_, row) =>
        row.typeStatus === TYPE_STATUS.offline ? (
          <Tag color="orange">{t('deviceConfig.online.offline')}</Tag>
        ) : (
          <Tag color="green">{t('deviceConfig.online.online')}</Tag>
        ),
    },
    {
      title: t('deviceConfig.field.fault'),
      dataIndex: 'fault',
      search: false,
      width: 120,
      render: (_, row) => (row.fault ? <Tag color="red">{t(faultKey(row.fault))}</Tag> : t('deviceConfig.faults.0')),
    },
    readings,
    remainingLifeColumn(t, empty),
    lastUpdate,
  ];

  return (
    <PageContainer
      title={t(view === 'list' ? 'deviceConfig.listTitle' : 'deviceConfig.statusTitle')}
      content={t(view === 'list' ? 'deviceConfig.listHint' : 'deviceConfig.statusHint')}
      extra={
        <Segmented
          value={view}
          options={[
            { value: 'list', label: t('deviceConfig.tabs.list') },
            { value: 'status', label: t('deviceConfig.tabs.status') },
          ]}
          onChange={(next) => void navigate(`/device/list/${next}`)}
        />
      }
    >
      <ProTable<Device, DeviceSearchForm>
        key={view}
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={t('deviceConfig.empty')} /> }}
        columns={[...filters, ...(view === 'list' ? listColumns : statusColumns)]}
        {...queryTableRows(devices)}
        cardBordered
        scroll={{ x: 'max-content' }}
        // Part number and last report are one click away (the settings gear), so the rest (the status view's
        // remaining life among it) fits at 1440 px.
        columnsState={{ defaultValue: { model: { show: false }, lastUpdate: { show: false } } }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onSubmit={(params) => setQuery((current) => ({ page: 1, pageSize: current.pageSize, ...deviceListFilters(params) }))}
        tableExtraRender={view === 'status' ? () => <DeviceStateStrip scope={stateScope(query)} /> : undefined}
        toolBarRender={() =>
          view === 'status'
            ? [
                <DownloadButton key="statusReport" data-testid="status-report" download={statusReport}>
                  {t('deviceConfig.statusReport')}
                </DownloadButton>,
              ]
            : []
        }
        onReset={() => setQuery((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void devices.refetch(), density: true, setting: true, fullScreen: false }}
        pagination={tablePaging(query, setQuery, devices.data?.total ?? 0)}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
