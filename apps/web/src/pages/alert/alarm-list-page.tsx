import { useState } from 'react';
import { App, Button, Segmented, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { CheckOutlined, EyeInvisibleOutlined, EyeOutlined, SettingOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { userMay, type Alarm, type AlarmListBody, type AlarmState } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { ProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { useAcknowledgeAlarms, useAlarmPage, useUnshelveAlarms } from '../../features/alarms/api.ts';
import { SEVERITY_COLOUR } from '../../features/alarms/severity.ts';
import { faultKey } from '../../features/device-config/param-fields.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { ShelveAlarmsModal } from './shelve-alarms-modal.tsx';
import { tablePaging } from '../../components/table-paging.ts';

/** What the list shows: alarms not over (the default), shelved ones, or every alarm including the ended. */
type View = 'standing' | 'shelved' | 'all';
const ALL_STATES: AlarmState[] = ['activeUnacked', 'activeAcked', 'clearedUnacked', 'normal'];
const STATE_COLOUR: Record<AlarmState, string> = { activeUnacked: 'red', activeAcked: 'orange', clearedUnacked: 'gold', normal: 'green' };

function viewFilter(view: View): Pick<AlarmListBody, 'states' | 'shelved'> {
  if (view === 'shelved') return { shelved: true };
  if (view === 'all') return { states: ALL_STATES };
  return {};
}

/**
 * /alert/alarms: the alarms of the current project, newest first (docs/alarms.md). Controllable users
 * acknowledge them, shelve them for a while with a reason, and put shelved ones back.
 */
export default function AlarmListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const controllable = userMay(user, 'control');
  const { projectId, setProjectId, tree } = useCurrentProject();
  const { time } = useSiteTime({ projectId });
  const stamp = (iso: string) => time(iso, 'second');
  const [view, setView] = useState<View>('standing');
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [selected, setSelected] = useState<Alarm[]>([]);
  const [shelving, setShelving] = useState<string[]>([]);
  const alarms = useAlarmPage(projectId ? { projectId, ...viewFilter(view), ...paging } : undefined);
  const acknowledge = useAcknowledgeAlarms();
  const unshelve = useUnshelveAlarms();

  const ack = async (ids: string[]) => {
    const done = await acknowledge.mutateAsync({ ids });
    void message.success(t('alarms.acknowledged', { count: done.count }));
    setSelected([]);
  };
  const putBack = async (ids: string[]) => {
    const done = await unshelve.mutateAsync({ ids });
    void message.success(t('alarms.unshelved', { count: done.count }));
    setSelected([]);
  };
  const unacked = (row: Alarm) => row.state === 'activeUnacked' || row.state === 'clearedUnacked';

  const columns: TableColumnsType<Alarm> = [
    {
      title: t('alarms.field.severity'),
      dataIndex: 'severity',
      width: 90,
      render: (_, row) => <Tag color={SEVERITY_COLOUR[row.severity]}>{t(`alarms.severity.${row.severity}`)}</Tag>,
    },
    {
      title: t('alarms.field.device'),
      dataIndex: 'name',
      width: 180,
      // The gateway under the device's name, as the fault list shows it, so the table fits the page.
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text style={{ wordBreak: 'break-word' }}>{row.name}</Typography.Text>
          {row.gatewayName && (
            <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-word' }}>
              {row.gatewayName}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('alarms.field.fault'),
      dataIndex: 'code',
      width: 130,
      render: (_, row) => (
        <Space size={4} wrap>
          <Tag style={{ whiteSpace: 'normal' }}>{t(faultKey(row.code))}</Tag>
          {row.chattering && (
            <Tooltip title={t('alarms.chatteringHint', { count: row.raiseCount })}>
              <Tag color="purple" data-testid="alarm-chattering" tabIndex={0}>
                {t('alarms.chattering')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('alarms.field.state'),
      dataIndex: 'state',
      width: 170,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATE_COLOUR[row.state]} data-testid="alarm-state" style={{ width: 'fit-content' }}>
            {t(`alarms.state.${row.state}`)}
          </Tag>
          {row.ackedBy && row.ackedAt && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('alarms.ackedBy', { name: row.ackedBy, at: stamp(row.ackedAt) })}
            </Typography.Text>
          )}
          {row.shelvedUntil && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="alarm-shelved">
              {t('alarms.shelvedUntil', { at: stamp(row.shelvedUntil), reason: row.shelvedReason ?? '' })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('alarms.field.raiseCount'), dataIndex: 'raiseCount', width: 70 },
    { title: t('alarms.field.raisedAt'), dataIndex: 'raisedAt', width: 150, render: (_, row) => stamp(row.raisedAt) },
    {
      title: t('alarms.field.clearedAt'),
      dataIndex: 'clearedAt',
      width: 150,
      render: (_, row) =>
        row.clearedAt ? (
          stamp(row.clearedAt)
        ) : row.state === 'normal' ? (
          '-'
        ) : (
          <Tag bordered={false} color="orange">
            {t('alarms.ongoing')}
          </Tag>
        ),
    },
    ...(controllable
      ? [
          {
            title: t('alarms.field.actions'),
            key: 'actions',
            width: 140,
            fixed: 'right' as const,
            render: (_: unknown, row: Alarm) =>
              row.state === 'normal' ? null : (
                <Space size={4} wrap>
                  {unacked(row) && (
                    <Button
                      size="small"
                      icon={<CheckOutlined />}
                      onClick={() => void ack([row.id]).catch(() => undefined)}
                      data-testid="alarm-ack"
                    >
                      {t('alarms.acknowledge')}
                    </Button>
                  )}
                  {row.shelvedUntil ? (
                    <Button
                      size="small"
                      icon={<EyeOutlined />}
                      onClick={() => void putBack([row.id]).catch(() => undefined)}
                      data-testid="alarm-unshelve"
                    >
                      {t('alarms.unshelve')}
                    </Button>
                  ) : (
                    <Button size="small" icon={<EyeInvisibleOutlined />} onClick={() => setShelving([row.id])} data-testid="alarm-shelve">
                      {t('alarms.shelve')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer
      title={t('alarms.listTitle')}
      content={t('alarms.listHint')}
      extra={
        <Space wrap>
          <Typography.Text>{t('alarms.project')}</Typography.Text>
          <ProjectSelect
            tree={tree.data}
            value={projectId}
            onChange={(id) => {
              setProjectId(id);
              setSelected([]);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
          />
          <Link to="/alert/alarmSettings">
            <Button icon={<SettingOutlined />} tabIndex={-1}>
              {t('alarms.settingsLink')}
            </Button>
          </Link>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
          <Segmented<View>
            aria-label={t('alarms.view.label')}
            value={view}
            onChange={(v) => {
              setView(v);
              setSelected([]);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            options={(['standing', 'shelved', 'all'] as const).map((v) => ({ value: v, label: t(`alarms.view.${v}`) }))}
          />
          {controllable && selected.length > 0 && (
            <Space wrap>
              <Typography.Text>{t('alarms.selected', { count: selected.length })}</Typography.Text>
              <Button
                type="primary"
                size="small"
                icon={<CheckOutlined />}
                loading={acknowledge.isPending}
                onClick={() => void ack(selected.map((a) => a.id)).catch(() => undefined)}
                data-testid="alarms-ack-selected"
              >
                {t('alarms.acknowledge')}
              </Button>
              <Button
                size="small"
                icon={<EyeInvisibleOutlined />}
                onClick={() => setShelving(selected.map((a) => a.id))}
                data-testid="alarms-shelve-selected"
              >
                {t('alarms.shelve')}
              </Button>
            </Space>
          )}
        </Space>
        <Table<Alarm>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={alarms.data?.list ?? []}
          loading={(alarms.isFetching && !alarms.data) || tree.isLoading}
          locale={{ emptyText: <EmptyHint text={t('alarms.empty')} /> }}
          scroll={{ x: 1128 }}
          onRow={(row) => ({ 'data-testid': `alarm-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          rowSelection={
            controllable
              ? {
                  selectedRowKeys: selected.map((a) => a.id),
                  onChange: (_, rows) => setSelected(rows),
                  getCheckboxProps: (row) => ({
                    disabled: row.state === 'normal',
                    'aria-label': t('common.selectRow', { name: row.name }),
                  }),
                }
              : undefined
          }
          pagination={tablePaging(paging, setPaging, alarms.data?.total ?? 0)}
        />
      </Space>
      <ShelveAlarmsModal
        ids={shelving}
        onClose={(done) => {
          setShelving([]);
          if (done) setSelected([]);
        }}
      />
    </PageContainer>
  );
}
