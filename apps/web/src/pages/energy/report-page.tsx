import { useState } from 'react';
import { Button, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, WarningOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { RECIPIENT_LIMITS, userMay, type Recipient } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useRecipients, useRecipientSwitch, useRemoveRecipient } from '../../features/reports/api.ts';
import type { Weekday } from '../../features/reports/recipient-form.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { RecipientModal } from './recipient-modal.tsx';
import { useLang } from '../../features/projects/site-time.ts';
import { formatTime } from '../../i18n/time-format.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/**
 * Report management (spec sections 2, 3 "Recipient", 9 report frequencies): who gets the project's reports by
 * mail, how often and with what, whether faults are mailed as they are raised, and how the sending went.
 */
export default function ReportPage() {
  const { t } = useTranslation();
  const notifyOnSuccess = useNotifyOnSuccess();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const { projectId, setProjectId, tree } = useCurrentProject();
  const lang = useLang();
  // A report leaves on its recipient's clock, so its times are told in the recipient's zone.
  const stamp = (at: string, zone: string) => formatTime(at, { zone, lang });
  const recipients = useRecipients(projectId);
  const remove = useRemoveRecipient();
  const realtime = useRecipientSwitch();
  const [editing, setEditing] = useState<{ recipient?: Recipient }>();
  const full = (recipients.data?.length ?? 0) >= RECIPIENT_LIMITS.perProject;

  const when = (r: Recipient) => {
    const time = r.sendTime;
    if (r.unit === 'month' && r.monthDay) return t('reports.when.month', { day: t(`reports.monthDay.${r.monthDay}`), time });
    if (r.unit === 'week' && r.weekday) return t('reports.when.week', { weekday: t(`reports.weekday.${r.weekday as Weekday}`), time });
    return t(`reports.when.${r.unit === 'year' ? 'year' : 'day'}`, { time });
  };

  const columns: ProColumns<Recipient>[] = [
    {
      title: t('reports.field.name'),
      dataIndex: 'name',
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{r.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
            {r.mail}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('reports.field.schedule'),
      dataIndex: 'unit',
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{when(r)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.timeZone} · {t(`lang.${r.lang}`)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('reports.field.contents'),
      dataIndex: 'contents',
      width: 170,
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.contents.map((content) => (
            <Tag key={content} bordered={false} color="blue">
              {t(`reports.content.${content}`)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('reports.field.realtimeFaults'),
      dataIndex: 'realtimeFaults',
      width: 120,
      render: (_, r) => (
        <Switch
          checked={r.realtimeFaults}
          disabled={!editable}
          loading={realtime.isPending && realtime.variables?.id === r.id}
          onChange={(on) => realtime.mutate({ id: r.id, on })}
          aria-label={t('reports.field.realtimeFaults')}
          data-testid={`recipient-switch-${r.name}`}
        />
      ),
    },
    {
      title: t('reports.field.sending'),
      dataIndex: 'nextSendAt',
      width: 230,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{t('reports.next', { at: stamp(r.nextSendAt, r.timeZone) })}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.lastSentAt ? t('reports.last', { at: stamp(r.lastSentAt, r.timeZone) }) : t('reports.neverSent')}
          </Typography.Text>
          {r.lastError && (
            <Tooltip title={r.lastError}>
              <Tag color="error" icon={<WarningOutlined />} style={{ width: 'fit-content' }} data-testid="recipient-error">
                {t('reports.failed')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    ...(editable
      ? [
          {
            title: t('reports.actions'),
            key: 'actions',
            width: 160,
            render: (_: unknown, r: Recipient) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ recipient: r })}
                  data-testid={`recipient-edit-${r.name}`}
                >
                  {t('reports.edit')}
                </Button>
                <Popconfirm
                  title={t('reports.deleteConfirm', { name: r.name })}
                  okText={t('reports.delete')}
                  cancelText={t('reports.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => notifyOnSuccess(remove.mutateAsync(r.id), t('reports.deleted'))}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`recipient-delete-${r.name}`}>
                    {t('reports.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer
      title={t('reports.title')}
      content={t('reports.hint')}
      extra={<HeaderProjectSelect label={t('reports.project')} tree={tree.data} value={projectId} onChange={setProjectId} />}
    >
      <ProTable<Recipient>
        rowKey="id"
        columns={columns}
        dataSource={recipients.data ?? []}
        loading={(recipients.isFetching && !recipients.data) || tree.isLoading}
        locale={{ emptyText: <EmptyHint text={t(editable ? 'reports.emptyEditable' : 'reports.empty')} /> }}
        cardBordered
        search={false}
        pagination={false}
        scroll={{ x: 1080 }}
        headerTitle={t('reports.count', { count: recipients.data?.length ?? 0, max: RECIPIENT_LIMITS.perProject })}
        onRow={(r) => ({ 'data-testid': `recipient-row-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() =>
          editable
            ? [
                <Tooltip key="add" title={full ? t('reports.full', { max: RECIPIENT_LIMITS.perProject }) : undefined}>
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    disabled={!projectId || full}
                    onClick={() => setEditing({})}
                    data-testid="recipient-add"
                  >
                    {t('reports.add')}
                  </Button>
                </Tooltip>,
              ]
            : []
        }
        options={{ reload: () => void recipients.refetch(), density: false, setting: false, fullScreen: false }}
      />
      {projectId && (
        <RecipientModal
          open={Boolean(editing)}
          projectId={projectId}
          recipient={editing?.recipient}
          onClose={() => setEditing(undefined)}
        />
      )}
    </PageContainer>
  );
}
