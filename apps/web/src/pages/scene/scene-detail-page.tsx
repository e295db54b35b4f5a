import { useState } from 'react';
import { App, Badge, Button, Card, Descriptions, Image, Popconfirm, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TIMED_SCENE_KINDS, type ScenePart, type SceneRun, type SceneMemberView } from '@lumigrid/contract/browser';
import { typeName } from '../../features/device-config/columns.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { useDeleteScene, useScene, useSceneRuns } from '../../features/scenes/api.ts';
import { memberKey } from '../../features/scenes/editor-state.ts';
import { editPath, runsByHand } from '../../features/scenes/timing.ts';
import { runZones } from '../../features/scenes/zones.ts';
import { ZonedTime } from '../../components/zoned-time.tsx';
import { NextRunCell, SceneStateTag } from './scene-parts.tsx';
import { runPartText } from './scene-results.tsx';
import { actionText, daysText, timingLines } from './scene-text.ts';
import { UpcomingRuns } from './upcoming-runs.tsx';
import { useRunSceneAction } from './use-run-scene.tsx';
import { useSearchParam } from '../../components/use-search-param.ts';
import { useUserMay } from '../../components/use-user-may.ts';

const RUNS_PAGE_SIZE = 10;

/**
 * /scene/detail?id=: a scene's settings, its members step by step, its part on each gateway, its next seven
 * runs and its run history (manual runs and the runs the gateways started), newest first.
 */
export default function SceneDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const sceneId = useSearchParam('id');
  const editable = useUserMay('write');
  const controllable = useUserMay('control');
  const scene = useScene(sceneId);
  const [runsPage, setRunsPage] = useState(1);
  const runs = useSceneRuns(sceneId ? { id: sceneId, page: runsPage, pageSize: RUNS_PAGE_SIZE } : undefined);
  const remove = useDeleteScene();
  const { run, running } = useRunSceneAction();
  const { time } = useSiteTime({ projectId: scene.data?.projectId });

  if (!sceneId || scene.isError) {
    return (
      <PageContainer title={t('menu.sceneDetail')}>
        <Result
          status="404"
          title={t('scenes.notFound')}
          extra={<Button onClick={() => void navigate('/scene/list')}>{t('scenes.backToList')}</Button>}
        />
      </PageContainer>
    );
  }
  const data = scene.data;
  if (!data) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
  const { fields } = data;
  const timed = TIMED_SCENE_KINDS.includes(data.kind);
  const views = new Map(data.members.map((m) => [memberKey(m), m]));
  // Every member's gateway has a part of the scene, so the parts name them all.
  const gatewayNames = new Map(data.parts.map((p) => [p.gatewayId, p.gatewayName]));
  const memberRows = fields.steps.flatMap((step, index) =>
    step.members.map((member) => ({
      ...member,
      step: index,
      holdS: step.holdS,
      view: views.get(memberKey(member)) as SceneMemberView | undefined,
    })),
  );

  const deleteScene = async () => {
    await remove.mutateAsync(data.id);
    void message.success(t('scenes.deleted', { name: data.name }));
    void navigate('/scene/list');
  };

  return (
    <PageContainer
      title={data.name}
      subTitle={<Tag bordered={false}>{t(`scenes.kind.${data.kind}`)}</Tag>}
      extra={[
        controllable && runsByHand(data.kind) && (
          <Button
            key="run"
            type="primary"
            icon={<PlayCircleOutlined />}
            loading={running === data.id}
            onClick={() => void run(data)}
            data-testid="scene-run"
          >
            {t('scenes.runNow')}
          </Button>
        ),
        editable && (
          <Button key="edit" onClick={() => void navigate(editPath(data))} data-testid="scene-edit">
            {t('scenes.edit')}
          </Button>
        ),
        editable && (
          <Popconfirm
            key="delete"
            title={t('scenes.deleteConfirm', { name: data.name })}
            description={t('scenes.deleteHint')}
            okText={t('scenes.delete')}
            cancelText={t('scenes.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteScene().catch(() => undefined)}
          >
            <Button danger>{t('scenes.delete')}</Button>
          </Popconfirm>
        ),
      ]}
    >
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small" title={t('scenes.section.basics')}>
          <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
            {data.image && (
              <Image
                src={data.image}
                alt={data.name}
                width={200}
                height={133}
                style={{ objectFit: 'cover', borderRadius: 6 }}
                data-testid="scene-detail-picture"
              />
            )}
            <div style={{ flex: 1, minWidth: 320 }}>
              <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="scene-fields">
                <Descriptions.Item label={t('scenes.field.kind')}>{t(`scenes.kind.${data.kind}`)}</Descriptions.Item>
                <Descriptions.Item label={t('scenes.field.state')}>
                  <SceneStateTag t={t} state={data.state} />
                </Descriptions.Item>
                <Descriptions.Item label={t('scenes.field.fade')}>{t('scenes.text.seconds', { count: fields.fadeS })}</Descriptions.Item>
                <Descriptions.Item label={t('scenes.field.members')}>
                  {t('scenes.deviceCount', { count: data.devices })}, {t('scenes.groupCount', { count: data.groups })}
                </Descriptions.Item>
                <Descriptions.Item label={t('scenes.field.nextRun')}>
                  <NextRunCell t={t} scene={data} />
                </Descriptions.Item>
                <Descriptions.Item label={t('scenes.field.created')}>{time(data.createdAt)}</Descriptions.Item>
                {timed && (
                  <Descriptions.Item label={t('scenes.timing.times')} span={2}>
                    <Space direction="vertical" size={0}>
                      {timingLines(t, fields).map((line, i) => (
                        <span key={i}>{line}</span>
                      ))}
                    </Space>
                  </Descriptions.Item>
                )}
                {timed && data.kind !== 'once' && (
                  <>
                    <Descriptions.Item label={t('scenes.timing.days')}>{daysText(t, fields.days)}</Descriptions.Item>
                    <Descriptions.Item label={t('scenes.timing.dates')}>
                      {fields.from || fields.to ? `${fields.from ?? '…'} – ${fields.to ?? '…'}` : t('scenes.text.always')}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('scenes.timing.holidays')}>
                      {fields.skipHolidays ? t('scenes.text.skipsHolidays') : t('scenes.text.runsOnHolidays')}
                    </Descriptions.Item>
                  </>
                )}
                {data.kind === 'sequence' && (
                  <>
                    <Descriptions.Item label={t('scenes.field.daliScene')}>{fields.daliScene ?? t('common.empty')}</Descriptions.Item>
                    <Descriptions.Item label={t('scenes.field.sequenceNo')}>{fields.sequenceNo ?? t('common.empty')}</Descriptions.Item>
                  </>
                )}
              </Descriptions>
            </div>
          </div>
        </Card>

        <Card size="small" title={t('scenes.section.members')}>
          <Table
            size="small"
            rowKey={(row) => `${row.step}:${memberKey(row)}`}
            dataSource={memberRows}
            pagination={false}
            scroll={{ x: 720 }}
            data-testid="scene-detail-members"
            columns={[
              ...(data.kind === 'sequence'
                ? [
                    {
                      title: t('scenes.sequence.stepColumn'),
                      key: 'step',
                      width: 140,
                      render: (_: unknown, row: (typeof memberRows)[number]) =>
                        `${t('scenes.sequence.step', { n: row.step + 1 })} · ${t('scenes.text.seconds', { count: row.holdS })}`,
                    },
                  ]
                : []),
              {
                title: t('scenes.members.name'),
                key: 'name',
                render: (_: unknown, row) => (
                  <Space size={6} wrap>
                    <span>{row.view?.name ?? row.id}</span>
                    {row.type === 'group' ? (
                      <Tag color="purple" bordered={false}>
                        {t('scenes.members.group')}
                      </Tag>
                    ) : (
                      row.view?.deviceType != null && <Typography.Text type="secondary">{typeName(t, row.view.deviceType)}</Typography.Text>
                    )}
                  </Space>
                ),
              },
              {
                title: t('scenes.members.gateway'),
                key: 'gateway',
                width: 180,
                render: (_: unknown, row) => (row.view ? (gatewayNames.get(row.view.gatewayId) ?? t('common.empty')) : t('common.empty')),
              },
              { title: t('scenes.members.target'), key: 'action', render: (_: unknown, row) => actionText(t, row.action) },
            ]}
          />
        </Card>

        <Card size="small" title={t('scenes.section.parts')}>
          <Table<ScenePart>
            size="small"
            rowKey="id"
            dataSource={data.parts}
            pagination={false}
            data-testid="scene-detail-parts"
            columns={[
              { title: t('scenes.members.gateway'), dataIndex: 'gatewayName' },
              {
                title: t('scenes.parts.presence'),
                dataIndex: 'online',
                width: 140,
                render: (online: boolean) => (
                  <Badge status={online ? 'success' : 'default'} text={online ? t('scenes.gatewayOnline') : t('scenes.gatewayOffline')} />
                ),
              },
              {
                title: t('scenes.parts.onGateway'),
                dataIndex: 'onGateway',
                width: 200,
                render: (on: boolean) =>
                  on ? <Tag color="green">{t('scenes.onGateway')}</Tag> : <Tag color="blue">{t('scenes.waitingSync')}</Tag>,
              },
              { title: t('scenes.parts.targets'), dataIndex: 'targets', width: 170, align: 'right' },
            ]}
          />
        </Card>

        {timed && (
          <Card size="small" title={t('scenes.section.upcoming')}>
            <UpcomingRuns runs={data.upcoming} gatewayNames={gatewayNames} />
          </Card>
        )}

        <Card size="small" title={t('scenes.section.history')}>
          <Table<SceneRun>
            size="small"
            rowKey={(row) => `${row.at}-${row.trigger}-${row.then}`}
            loading={runs.isLoading}
            dataSource={runs.data?.list ?? []}
            locale={{ emptyText: t('scenes.neverRun') }}
            data-testid="scene-history"
            pagination={{
              current: runsPage,
              pageSize: RUNS_PAGE_SIZE,
              total: runs.data?.total ?? 0,
              showSizeChanger: false,
              onChange: setRunsPage,
            }}
            columns={[
              {
                title: t('scenes.history.at'),
                dataIndex: 'at',
                width: 230,
                render: (at: string, row) => <ZonedTime t={t} at={at} zones={runZones(row, data.parts)} />,
              },
              {
                title: t('scenes.history.trigger'),
                dataIndex: 'trigger',
                width: 150,
                render: (trigger: SceneRun['trigger']) => t(`scenes.trigger.${trigger}`),
              },
              {
                title: t('scenes.history.then'),
                dataIndex: 'then',
                width: 150,
                render: (then: SceneRun['then']) => <Tag color={then === 'start' ? 'gold' : 'default'}>{t(`scenes.then.${then}`)}</Tag>,
              },
              {
                title: t('scenes.history.result'),
                key: 'parts',
                render: (_: unknown, row) => (
                  <Space direction="vertical" size={2}>
                    {row.parts.map((part) => {
                      const result = runPartText(t, part);
                      return (
                        <Space key={part.gatewayId} size={6} wrap>
                          <Typography.Text>{part.gatewayName}</Typography.Text>
                          <Tag color={result.colour} bordered={false}>
                            {result.text}
                          </Tag>
                        </Space>
                      );
                    })}
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      </Space>
    </PageContainer>
  );
}
