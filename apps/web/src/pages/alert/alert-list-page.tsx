import { useState } from 'react';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ALERT_STATES, FAULT_CODES, userMay, type Alert, type AlertListBody } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { alertApi, useAlertPage, useDeleteAlerts } from '../../features/alerts/api.ts';
import {
  alertFilters,
  alertListLinkOf,
  alertReportFilters,
  placeName,
  placeOf,
  searchFormOfLink,
  type AlertSearchForm,
} from '../../features/alerts/filters.ts';
import { useDownload } from '../../api/download.ts';
import { faultKey } from '../../features/device-config/param-fields.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { HandleAlertsModal } from './handle-alerts-modal.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { DownloadButton } from '../../components/download-button.tsx';
import { choiceFilter, dayRangeFilter } from '../../components/search-filters.ts';

/** Spec section 9 status colours: pending amber, handled green. */
const STATE_COLOUR = { pending: 'gold', handled: 'green' } as const;

/**
 * /alert/list: the faults of the current project's devices and gateways, newest first, with where each stands,
 * when it was raised and cleared, and who handled it. Controllable users mark them handled with a note; editors
 * delete them.
 */
export default function AlertListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const controllable = userMay(user, 'control');
  const editable = userMay(user, 'write');
  // A link from the statistics (drill-down) opens the list filtered; read once, the form takes over after.
  const [searchParams] = useSearchParams();
  const [link] = useState(() => alertListLinkOf(searchParams));
  const { projectId, setProjectId, tree } = useCurrentProject(link.projectId);
  const { time } = useSiteTime({ projectId });
  const stamp = (iso: string) => time(iso, 'second');
  const [filters, setFilters] = useState<Omit<AlertListBody, 'projectId'>>(() => ({
    page: 1,
    pageSize: 20,
    ...placeOf(link),
    ...alertFilters(searchFormOfLink(link)),
  }));
  const place = placeOf(filters);
  const [selected, setSelected] = useState<Alert[]>([]);
  const [handling, setHandling] = useState(false);
  const alerts = useAlertPage(projectId ? { projectId, ...filters } : undefined);
  const remove = useDeleteAlerts();
  const failReport = useDownload(() =>
    alertApi.failReport(alertReportFilters({ projectId, ...filters }), `${t('alerts.failReportFile')}.xlsx`),
  );
  const empty = <Typography.Text type="secondary">-</Typography.Text>;

  const deleteSelected = async () => {
    const done = await remove.mutateAsync({ ids: selected.map((a) => a.id) });
    void message.success(t('alerts.deleted', { count: done.count }));
    setSelected([]);
  };

  const columns: ProColumns<Alert>[] = [
    choiceFilter(t('alerts.field.fault'), 'code', Object.values(FAULT_CODES), (code) => t(faultKey(code))),
    choiceFilter(t('alerts.field.state'), 'state', ALERT_STATES, (s) => t(`alerts.state.${s}`)),
    choiceFilter(t('alerts.field.open'), 'open', ['open', 'cleared'] as const, (o) => t(`alerts.open.${o}`)),
    dayRangeFilter(t('alerts.field.raisedAt'), 'raisedAt', [t('alerts.rangeFrom'), t('alerts.rangeTo')]),
    {
      title: t('alerts.field.device'),
      dataIndex: 'name',
      search: false,
      width: 150,
      fixed: 'left',
      render: (_, row) => (
        <Space size={4} wrap>
          <Typography.Text style={{ wordBreak: 'break-word' }}>{row.name}</Typography.Text>
          {row.kind === 'gateway' && (
            <Tag bordered={false} color="blue">
              {t('alerts.gatewayTag')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('alerts.field.fault'),
      dataIndex: 'code',
      search: false,
      width: 140,
      render: (_, row) => (
        <Tag color="red" style={{ whiteSpace: 'normal' }}>
          {t(faultKey(row.code))}
        </Tag>
      ),
    },
    {
      title: t('alerts.field.state'),
      dataIndex: 'state',
      search: false,
      width: 170,
      // Who handled it, when, and the note go under the state, so the table fits the window.
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATE_COLOUR[row.state]} data-testid="alert-state" style={{ width: 'fit-content' }}>
            {t(`alerts.state.${row.state}`)}
          </Tag>
          {row.handledBy && <Typography.Text style={{ fontSize: 12 }}>{row.handledBy}</Typography.Text>}
          {row.handledAt && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {stamp(row.handledAt)}
            </Typography.Text>
          )}
          {row.note && (
            <Tooltip title={row.note}>
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 150, fontSize: 12 }} data-testid="alert-note">
                {row.note}
              </Typography.Text>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('alerts.field.place'),
      dataIndex: 'mapName',
      search: false,
      width: 150,
      render: (_, row) => (row.buildName || row.mapName ? [row.buildName, row.mapName].filter(Boolean).join(' / ') : empty),
    },
    { title: t('alerts.field.gateway'), dataIndex: 'gatewayName', search: false, width: 120 },
    {
      title: t('alerts.field.raisedAt'),
      dataIndex: 'raisedAt',
      search: false,
      width: 150,
      render: (_, row) => stamp(row.raisedAt),
    },
    {
      title: t('alerts.field.clearedAt'),
      dataIndex: 'clearedAt',
      search: false,
      width: 150,
      render: (_, row) =>
        row.clearedAt ? (
          stamp(row.clearedAt)
        ) : (
          <Tag bordered={false} color="orange">
            {t('alerts.ongoing')}
          </Tag>
        ),
    },
  ];

  const selectable = controllable || editable;
  return (
    <PageContainer
      title={t('alerts.listTitle')}
      content={t('alerts.listHint')}
      extra={
        <HeaderProjectSelect
          label={t('alerts.project')}
          tree={tree.data}
          value={projectId}
          onChange={(id) => {
            setProjectId(id);
            setSelected([]);
            // A building or map of the project before does not belong to this one.
            setFilters(({ buildId: _buildId, mapId: _mapId, ...current }) => ({ ...current, page: 1 }));
          }}
        />
      }
    >
      <ProTable<Alert, AlertSearchForm>
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={t('alerts.empty')} /> }}
        columns={columns}
        dataSource={alerts.data?.list ?? []}
        loading={(alerts.isFetching && !alerts.data) || tree.isLoading}
        cardBordered
        form={{ initialValues: searchFormOfLink(link) }}
        headerTitle={
          (place.buildId || place.mapId) && (
            <Tag
              closable
              onClose={() => setFilters(({ buildId: _buildId, mapId: _mapId, ...current }) => ({ ...current, page: 1 }))}
              data-testid="alerts-place-filter"
            >
              <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineEnd: 6 }}>
                {t('alerts.field.place')}
              </Typography.Text>
              {placeName(tree.data, place) ?? '-'}
            </Tag>
          )
        }
        scroll={{ x: 1070 }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onRow={(row) => ({ 'data-testid': `alert-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selected.map((a) => a.id),
                onChange: (_, rows) => setSelected(rows),
                preserveSelectedRowKeys: true,
                getCheckboxProps: (row) => ({ name: row.name, 'aria-label': t('common.selectRow', { name: row.name }) }),
              }
            : undefined
        }
        toolBarRender={() => [
          <DownloadButton key="failReport" disabled={!projectId} data-testid="alerts-fail-report" download={failReport}>
            {t('alerts.failReport')}
          </DownloadButton>,
        ]}
        tableAlertRender={({ selectedRowKeys }) => t('alerts.selected', { count: selectedRowKeys.length })}
        tableAlertOptionRender={() => (
          <Space>
            {controllable && (
              <Button type="primary" size="small" icon={<CheckOutlined />} onClick={() => setHandling(true)} data-testid="alerts-handle">
                {t('alerts.markHandled')}
              </Button>
            )}
            {editable && (
              <Popconfirm
                title={t('alerts.deleteConfirm', { count: selected.length })}
                description={t('alerts.deleteHint')}
                okText={t('alerts.delete')}
                cancelText={t('alerts.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => deleteSelected().catch(() => undefined)}
              >
                <Button danger size="small" icon={<DeleteOutlined />} loading={remove.isPending} data-testid="alerts-delete">
                  {t('alerts.delete')}
                </Button>
              </Popconfirm>
            )}
            <Typography.Link onClick={() => setSelected([])}>{t('alerts.clearSelection')}</Typography.Link>
          </Space>
        )}
        onSubmit={(params) => {
          setSelected([]);
          setFilters((current) => ({ page: 1, pageSize: current.pageSize, ...placeOf(current), ...alertFilters(params) }));
        }}
        onReset={() => setFilters((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void alerts.refetch(), density: true, setting: true, fullScreen: false }}
        pagination={{
          ...tablePaging(filters, setFilters, alerts.data?.total ?? 0),
          // Past 10,000 the server stops counting: say "more than", not a total it does not know.
          ...(alerts.data?.totalCapped
            ? { showTotal: (total: number, [from, to]: [number, number]) => t('alerts.rangeOfMore', { from, to, count: total }) }
            : {}),
        }}
      />
      <HandleAlertsModal
        ids={handling ? selected.map((a) => a.id) : []}
        onClose={(done) => {
          setHandling(false);
          if (done) setSelected([]);
        }}
      />
    </PageContainer>
  );
}
