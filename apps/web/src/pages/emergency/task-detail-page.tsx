import { Button, Card, Col, Descriptions, Empty, Progress, Result, Row, Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { CaretRightOutlined, DeleteOutlined, EditOutlined, FileTextOutlined, PauseOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  EMERGENCY_CATEGORY_COLOURS,
  emergencyCategory,
  emergencyDestination,
  type EmergencyTaskDevice,
  type EmergencyTask,
} from '@lumigrid/contract/browser';
import { useRealtime } from '../../app/realtime-provider.tsx';
import { applyEmergencyMessage, useEmergencyTask } from '../../features/emergency/api.ts';
import { resultColour } from '../../features/emergency/task-form.ts';
import { durationText, resultText, stateText } from '../../features/emergency/texts.ts';
import { RESULT_COLOUR, STATUS_COLOUR, runPath } from './emergency-links.ts';
import { useTaskActions } from './use-task-actions.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { useSearchParam } from '../../components/use-search-param.ts';
import { useUserMay } from '../../components/use-user-may.ts';

/**
 * /emergency/set/details?i=<task>&p=<project>: one task, its settings, and its lights as they stand in the
 * current or last run: live emergency state (codes 1-30), progress and result of each, moving as the gateway
 * reports on the map's topic.
 */
export default function TaskDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const taskId = useSearchParam('i');
  const editable = useUserMay('write');
  const detail = useEmergencyTask(taskId);
  const actions = useTaskActions(() => void navigate('/emergency/set'));
  const task = detail.data?.task;
  const run = detail.data?.run;
  const { time } = useSiteTime({ projectId: task?.projectId });
  const when = (iso: string | null) => time(iso, 'second');
  useRealtime(task ? emergencyDestination(task.mapId) : undefined, (payload) => {
    if (task) applyEmergencyMessage(queryClient, task.mapId, payload);
  });

  if (!taskId) return <Result status="404" title={t('emergency.detail.missing')} />;
  if (detail.isLoading) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
  if (!task)
    return (
      <Result status="404" title={t('emergency.detail.missing')} extra={<Link to="/emergency/set">{t('emergency.detail.back')}</Link>} />
    );

  const columns = [
    {
      title: t('emergency.field.light'),
      dataIndex: 'name',
      render: (_: unknown, d: EmergencyTaskDevice) => <WithSecondLine first={d.name} second={d.addr} />,
    },
    {
      title: t('emergency.field.state'),
      dataIndex: 'state',
      render: (_: unknown, d: EmergencyTaskDevice) => {
        const category = emergencyCategory(d.state, d.online);
        return (
          <Tag color={EMERGENCY_CATEGORY_COLOURS[category]} data-testid={`emergency-device-state-${d.name}`} data-category={category}>
            {d.online ? stateText(t, d.state) : t('emergency.category.offline')}
          </Tag>
        );
      },
    },
    {
      title: t('emergency.field.battery'),
      dataIndex: 'battery',
      align: 'right' as const,
      render: (v: number | null) => (v === null ? '—' : `${v}%`),
    },
    { title: t('emergency.field.wave'), dataIndex: 'wave', align: 'right' as const, render: (v: number | null) => v ?? '—' },
    {
      title: t('emergency.field.progress'),
      dataIndex: 'progress',
      width: 180,
      render: (v: number | null, d: EmergencyTaskDevice) =>
        v === null ? (
          <Typography.Text type="secondary">{t('emergency.detail.waiting')}</Typography.Text>
        ) : (
          <Progress
            aria-label={`${t('emergency.field.progress')}: ${d.name}`}
            percent={v}
            size="small"
            status={d.passed === false ? 'exception' : d.passed ? 'success' : 'active'}
          />
        ),
    },
    {
      title: t('emergency.field.result'),
      dataIndex: 'result',
      render: (v: number | null, d: EmergencyTaskDevice) => {
        const text = resultText(t, task.test, v);
        return text ? (
          <Tag color={resultColour(task.test, v)} data-testid={`emergency-device-result-${d.name}`}>
            {text}
          </Tag>
        ) : (
          '—'
        );
      },
    },
    {
      title: t('emergency.field.failures'),
      dataIndex: 'failures',
      render: (v: EmergencyTaskDevice['failures']) =>
        v.length
          ? v.map((f) => (
              <Tag key={f} color="red" bordered={false}>
                {t(`emergency.failure.${f}`)}
              </Tag>
            ))
          : '—',
    },
  ];

  return (
    <PageContainer
      title={task.name}
      onBack={() => void navigate('/emergency/set')}
      tags={
        <Tag color={STATUS_COLOUR[task.status]} data-testid="emergency-detail-status">
          {t(`emergency.status.${task.status}`)}
        </Tag>
      }
      extra={<TaskButtons task={task} editable={editable} actions={actions} />}
    >
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={24} lg={14}>
          <Card title={t('emergency.detail.settings')} variant="borderless" style={{ height: '100%' }}>
            <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 3 }} size="small">
              <Descriptions.Item label={t('emergency.field.project')}>{task.projectName}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.place')}>{[task.buildName, task.mapName].join(' / ')}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.gateway')}>{task.gatewayName}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.quantity')}>{task.quantity}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.test')}>{t(`emergency.test.${task.test}`)}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.duration')}>{durationText(t, task.test, task.duration)}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.lightType')}>{t(`emergency.lightType.${task.lightType}`)}</Descriptions.Item>
              <Descriptions.Item label={t('emergency.field.batteryCells')}>{task.batteryCells}</Descriptions.Item>
              {task.test === 'life' && (
                <Descriptions.Item label={t('emergency.field.allowWhileCharging')}>
                  {t(task.allowWhileCharging ? 'emergency.yes' : 'emergency.no')}
                </Descriptions.Item>
              )}
              <Descriptions.Item label={t('emergency.field.rule')}>
                {task.schedule.rule === 'none'
                  ? t('emergency.recurrence.none')
                  : t(task.schedule.rule === 'monthly' ? 'emergency.detail.monthly' : 'emergency.detail.yearly', task.schedule)}
              </Descriptions.Item>
              {task.nextRunAt && <Descriptions.Item label={t('emergency.field.nextRun')}>{when(task.nextRunAt)}</Descriptions.Item>}
              <Descriptions.Item label={t('emergency.field.spacing')}>
                {task.stagger.spacingM > 0 ? `${task.stagger.spacingM} m` : t('emergency.detail.noStagger')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card
            title={t('emergency.detail.run')}
            variant="borderless"
            style={{ height: '100%' }}
            extra={
              run && (
                <Link to={runPath(run.id)} data-testid="emergency-detail-report">
                  <FileTextOutlined /> {t('emergency.detail.records')}
                </Link>
              )
            }
          >
            {run ? (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Progress
                  aria-label={t('emergency.field.progress')}
                  percent={run.progress}
                  status={
                    run.state === 'running'
                      ? 'active'
                      : run.result === 'failed'
                        ? 'exception'
                        : run.result === 'pass'
                          ? 'success'
                          : 'normal'
                  }
                  data-testid="emergency-detail-progress"
                  data-progress={run.progress}
                />
                <Row gutter={8}>
                  <Col span={6}>
                    <Statistic title={t('emergency.field.quantity')} value={run.total} />
                  </Col>
                  <Col span={6}>
                    <Statistic title={t('emergency.field.passed')} value={run.passed} valueStyle={{ color: '#237804' }} />
                  </Col>
                  <Col span={6}>
                    <Statistic
                      title={t('emergency.field.failed')}
                      value={run.failed}
                      valueStyle={{ color: run.failed ? '#cf1322' : undefined }}
                    />
                  </Col>
                  <Col span={6}>
                    <Statistic title={t('emergency.field.wave')} value={`${Math.min(run.currentWave, run.waves)}/${run.waves}`} />
                  </Col>
                </Row>
                <Descriptions column={1} size="small">
                  <Descriptions.Item label={t('emergency.field.startedAt')}>
                    {when(run.startedAt)} · {t(`emergency.trigger.${run.trigger}`)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('emergency.field.finishedAt')}>{when(run.finishedAt)}</Descriptions.Item>
                  {run.nextWaveAt && <Descriptions.Item label={t('emergency.field.nextWave')}>{when(run.nextWaveAt)}</Descriptions.Item>}
                  <Descriptions.Item label={t('emergency.field.result')}>
                    {run.result ? (
                      <Tag color={RESULT_COLOUR[run.result]} data-testid="emergency-detail-result">
                        {t(`emergency.result.${run.result}`)}
                      </Tag>
                    ) : (
                      t('emergency.status.running')
                    )}
                  </Descriptions.Item>
                </Descriptions>
              </Space>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('emergency.neverRun')} />
            )}
          </Card>
        </Col>
      </Row>
      <Card title={t('emergency.detail.lights', { count: detail.data?.devices.length ?? 0 })} variant="borderless">
        <Table<EmergencyTaskDevice>
          rowKey="deviceId"
          size="middle"
          columns={columns}
          dataSource={detail.data?.devices ?? []}
          pagination={false}
          onRow={(d) => ({ 'data-testid': `emergency-device-row-${d.name}` }) as React.HTMLAttributes<HTMLElement>}
        />
      </Card>
    </PageContainer>
  );
}

function TaskButtons({ task, editable, actions }: { task: EmergencyTask; editable: boolean; actions: ReturnType<typeof useTaskActions> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!editable) return null;
  return (
    <Space>
      {task.status === 'running' ? (
        <Button danger icon={<PauseOutlined />} onClick={() => actions.confirm(task, 'stop')} data-testid="emergency-detail-stop">
          {t('emergency.action.stop')}
        </Button>
      ) : (
        <Button
          type="primary"
          icon={<CaretRightOutlined />}
          onClick={() => actions.confirm(task, 'start')}
          data-testid="emergency-detail-start"
        >
          {t('emergency.action.start')}
        </Button>
      )}
      <Button
        icon={<EditOutlined />}
        disabled={task.status === 'running'}
        onClick={() => void navigate(`/emergency/set/add?i=${task.id}&p=${task.projectId}`)}
        data-testid="emergency-detail-edit"
      >
        {t('emergency.action.edit')}
      </Button>
      <Button danger icon={<DeleteOutlined />} onClick={() => actions.confirm(task, 'delete')} data-testid="emergency-detail-delete">
        {t('emergency.action.delete')}
      </Button>
    </Space>
  );
}
