import { useState } from 'react';
import { Button, Dropdown, Popover, Space, Tag, Typography } from 'antd';
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GATEWAY_FIRMWARE_TARGETS, GATEWAY_LIMITS, type Gateway, type GatewayListQuery } from '@lumigrid/contract/browser';
import { useGatewayPage } from '../../features/gateways/api.ts';
import { PresenceTag } from '../../features/gateways/presence-tag.tsx';
import { syncLabel } from '../../features/gateways/status.ts';
import { useGatewayActions } from './gateway-actions.tsx';
import { BindGatewayModal, MicrowaveModal, MoveGatewayModal, OpenNetworkModal, RenameGatewayModal } from './gateway-dialogs.tsx';
import { MapPathSelect } from '../../features/projects/map-path-select.tsx';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { useUserMay } from '../../components/use-user-may.ts';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { choiceFilter } from '../../components/search-filters.ts';

type Dialog = { kind: 'bind' } | { kind: 'rename' | 'move' | 'network' | 'microwave'; gateway: Gateway } | undefined;

interface SearchForm {
  keyword?: string;
  online?: 'online' | 'offline';
  place?: string[];
}

/** The place filter: a project, a building or a map, whichever was chosen last. */
function placeQuery(path: string[] | undefined): Pick<GatewayListQuery, 'projectId' | 'buildId' | 'mapId'> {
  if (!path?.length) return {};
  if (path.length >= 3) return { mapId: path[2] };
  if (path.length === 2) return { buildId: path[1] };
  return { projectId: path[0] };
}

/** The gateway list: searched, filtered and paged on the server, with bind and the gateway actions. */
export default function GatewayListPage() {
  const { t } = useTranslation();
  const editable = useUserMay('write');
  const operate = useUserMay('control');
  const [query, setQuery] = useState<GatewayListQuery>({ page: 1, pageSize: GATEWAY_LIMITS.pageSize.default });
  const [dialog, setDialog] = useState<Dialog>();
  /** The props of the dialog `kind` on a row's gateway: open, and with that gateway, while it is the one asked for. */
  const gatewayDialog = (kind: 'rename' | 'move' | 'network' | 'microwave') => ({
    open: dialog?.kind === kind,
    gateway: dialog?.kind === kind ? dialog.gateway : undefined,
    onClose: () => setDialog(undefined),
  });
  const gateways = useGatewayPage(query);
  const actions = useGatewayActions();
  const empty = t('common.empty');

  const columns: ProColumns<Gateway>[] = [
    {
      title: t('gateway.keyword'),
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: t('gateway.keywordPlaceholder'), maxLength: GATEWAY_LIMITS.name.max },
    },
    choiceFilter(t('gateway.field.status'), 'online', ['online', 'offline'] as const, (s) => t(`gateway.status.${s}`)),
    {
      title: t('gateway.field.place'),
      dataIndex: 'place',
      hideInTable: true,
      renderFormItem: () => <MapPathSelect partial placeholder={t('gateway.field.anyPlace')} />,
    },
    {
      title: t('gateway.field.name'),
      dataIndex: 'name',
      search: false,
      width: 180,
      fixed: 'left',
      render: (_, row) => (
        <Space direction="vertical" size={2}>
          <Link to={`/gateway/detail?id=${row.id}`} style={{ wordBreak: 'break-word' }}>
            {row.name}
          </Link>
          {row.superGateway && (
            <Tag color="purple" bordered={false}>
              {t('gateway.super')}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('gateway.field.mac'), dataIndex: 'mac', search: false, width: 160, copyable: true },
    { title: t('gateway.field.ip'), dataIndex: 'ip', search: false, width: 120, render: (_, row) => row.ip || empty },
    {
      title: t('gateway.field.status'),
      dataIndex: 'activity',
      search: false,
      width: 100,
      render: (_, row) => <PresenceTag gateway={row} />,
    },
    {
      title: t('gateway.field.syncStatus'),
      dataIndex: 'syncStatus',
      search: false,
      width: 110,
      render: (_, row) => {
        const label = syncLabel(row.syncStatus);
        return <Tag color={label.color}>{t(label.key)}</Tag>;
      },
    },
    {
      title: t('gateway.field.location'),
      dataIndex: 'mapName',
      search: false,
      ellipsis: { showTitle: true },
      render: (_, row) => [row.projectName, row.buildName, row.mapName].join(' / '),
    },
    {
      title: t('gateway.field.versions'),
      dataIndex: 'versions',
      search: false,
      width: 110,
      render: (_, row) => (
        <Popover
          title={t('gateway.field.versions')}
          content={
            <table className="lg-version-table">
              <tbody>
                {GATEWAY_FIRMWARE_TARGETS.map((part) => (
                  <tr key={part}>
                    <th>{t(`gateway.version.${part}`)}</th>
                    <td>{row.versions[part] || empty}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        >
          <Typography.Text style={{ cursor: 'help' }}>{row.versions.gateway || empty}</Typography.Text>
        </Popover>
      ),
    },
    {
      title: t('gateway.actions'),
      valueType: 'option',
      fixed: 'right',
      width: 150,
      render: (_, row) => {
        const more = [
          operate && { key: 'identify', label: t('gateway.identify') },
          operate && { key: 'restart', label: t('gateway.restart') },
          editable && { key: 'rename', label: t('gateway.rename') },
          editable && { key: 'move', label: t('gateway.move') },
          editable && { key: 'network', label: t('gateway.network.button') },
          editable && { key: 'import', label: t('gateway.import') },
          editable && { key: 'independent', label: t('gateway.sensors.independentTitle') },
          editable && { key: 'linkage', label: t('gateway.sensors.linkageTitle') },
          editable && { key: 'microwave', label: t('gateway.microwave.title') },
          editable && { key: 'unbind', label: t('gateway.unbind'), danger: true },
        ].filter((item) => item !== false);
        return [
          <Link key="open" to={`/gateway/detail?id=${row.id}`}>
            {t('gateway.open')}
          </Link>,
          more.length > 0 && (
            <Dropdown
              key="more"
              menu={{
                items: more,
                onClick: ({ key }) => {
                  if (key === 'identify') void actions.identify(row);
                  if (key === 'restart') actions.restart(row);
                  if (key === 'rename' || key === 'move') setDialog({ kind: key, gateway: row });
                  if (key === 'import') void actions.importDevices(row);
                  if (key === 'network' || key === 'microwave') setDialog({ kind: key, gateway: row });
                  if (key === 'independent' || key === 'linkage') actions.sensorMode(row, key);
                  if (key === 'unbind') actions.unbind(row);
                },
              }}
            >
              <Typography.Link data-testid={`gateway-more-${row.mac}`}>
                {t('gateway.more')} <MoreOutlined />
              </Typography.Link>
            </Dropdown>
          ),
        ];
      },
    },
  ];

  return (
    <PageContainer title={t('gateway.title')} content={t('gateway.hint')}>
      <ProTable<Gateway, SearchForm>
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={t('gateway.empty')} /> }}
        columns={columns}
        {...queryTableRows(gateways)}
        cardBordered
        scroll={{ x: 1060 }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onSubmit={(params) =>
          setQuery((current) => ({
            page: 1,
            pageSize: current.pageSize,
            ...placeQuery(params.place),
            ...(params.keyword?.trim() ? { name: params.keyword.trim() } : {}),
            ...(params.online ? { online: params.online === 'online' } : {}),
          }))
        }
        onReset={() => setQuery((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void gateways.refetch(), density: true, setting: true, fullScreen: false }}
        toolBarRender={() =>
          editable
            ? [
                <Button key="bind" type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'bind' })}>
                  {t('gateway.bindTitle')}
                </Button>,
              ]
            : []
        }
        pagination={tablePaging(query, setQuery, gateways.data?.total ?? 0)}
      />
      <BindGatewayModal open={dialog?.kind === 'bind'} onClose={() => setDialog(undefined)} />
      <RenameGatewayModal {...gatewayDialog('rename')} />
      <MoveGatewayModal {...gatewayDialog('move')} />
      <OpenNetworkModal {...gatewayDialog('network')} />
      <MicrowaveModal {...gatewayDialog('microwave')} />
    </PageContainer>
  );
}
