import { useMemo } from 'react';
import { Avatar, Badge, Card, Col, Descriptions, Empty, Flex, List, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { KeyOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { canSeeAdministrators, DISPLAY_STATES, LIMITS } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { useMe } from '../../features/auth/api.ts';
import { ProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useAlertStatistics, useDeviceState } from '../../features/alerts/statistics-api.ts';
import { DISPLAY_COLOUR, lastDays, statisticsBody } from '../../features/alerts/statistics-charts.ts';
import { alertListHref } from '../../features/alerts/filters.ts';
import { useSceneWeek } from '../../features/scenes/api.ts';
import { sceneColour } from '../../features/scenes/week.ts';
import { ZonedTime } from '../../components/zoned-time.tsx';
import { upcomingRuns } from '../../features/home/overview.ts';
import { RoleText } from '../../components/role-text.tsx';
import { Figure, OverviewCard } from './overview-card.tsx';
import { EnergyOverviewCard } from './energy-overview-card.tsx';
import { PlatformOverview } from './platform-overview.tsx';

const NEXT_RUNS = 6;
const DAY = 'YYYY-MM-DD';

/**
 * /home: the overview an operator opens first, for the current project: gateways and devices as they stand,
 * faults open and raised today, energy, the next scheduled runs; each card opens its page. The account and
 * the platform stay in a smaller card.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const { mode, info } = useBoot();
  const { data: user } = useMe();
  const { projectId, setProjectId, tree } = useCurrentProject();
  const place = projectId ? { projectId } : undefined;
  const deviceState = useDeviceState(place);
  const today = useMemo(() => lastDays(1), []);
  const alerts = useAlertStatistics(place && statisticsBody(place, today, 'day'));
  const week = useSceneWeek(projectId ? { projectId, from: dayjs().format(DAY), days: 7 } : undefined);
  const nextRuns = useMemo(() => upcomingRuns(week.data ?? [], Date.now(), NEXT_RUNS), [week.data]);

  if (!user) return null;
  const empty = t('common.empty');
  const devices = deviceState.data;
  const stats = alerts.data;
  const loadingDevices = !devices && (tree.isLoading || deviceState.isLoading);

  return (
    <PageContainer title={false}>
      <Flex vertical gap={24}>
        <Card variant="borderless">
          <Flex wrap gap={20} align="center" justify="space-between">
            <Space size={20} align="center">
              <Avatar size={64} src={user.head_img || undefined} icon={<UserOutlined />} style={{ backgroundColor: '#1677ff' }} />
              <div>
                <Typography.Title level={3} style={{ margin: 0 }}>
                  {t('home.welcome', { name: user.name || user.account })}
                </Typography.Title>
                <Typography.Text type="secondary">{t('home.welcomeHint')}</Typography.Text>
              </div>
            </Space>
            <Space size="small">
              <Typography.Text>{t('home.project')}</Typography.Text>
              <ProjectSelect tree={tree.data} value={projectId} onChange={setProjectId} />
            </Space>
          </Flex>
        </Card>

        {/* The platform administrator runs the platform first: every tenant and the fleet, above its own installation. */}
        {canSeeAdministrators(user) && <PlatformOverview />}
        <Row gutter={[24, 24]}>
          <Col xs={24} md={12} xl={6}>
            <OverviewCard id="gateways" title={t('home.gatewaysCard')} to="/gateway/list">
              {loadingDevices ? (
                <Skeleton active paragraph={{ rows: 2 }} />
              ) : (
                <Row gutter={16}>
                  <Col span={12}>
                    <Figure id="gateways-online" title={t('home.online')} value={devices?.gateways.online} />
                  </Col>
                  <Col span={12}>
                    <Figure id="gateways-offline" title={t('home.offline')} value={devices?.gateways.offline} danger />
                  </Col>
                </Row>
              )}
            </OverviewCard>
          </Col>
          <Col xs={24} md={12} xl={6}>
            <OverviewCard id="alerts" title={t('home.alertsCard')} to={alertListHref({ projectId })}>
              {!stats && alerts.isLoading ? (
                <Skeleton active paragraph={{ rows: 2 }} />
              ) : (
                <Row gutter={16}>
                  <Col span={12}>
                    <Figure id="alerts-open" title={t('home.openAlerts')} value={stats?.open} danger />
                  </Col>
                  <Col span={12}>
                    <Figure id="alerts-today" title={t('home.alertsToday')} value={stats?.total} />
                  </Col>
                </Row>
              )}
            </OverviewCard>
          </Col>
          <Col xs={24} xl={12}>
            <OverviewCard
              id="devices"
              title={devices ? t('home.devicesCard', { count: devices.total }) : t('home.devicesTitle')}
              to="/device/list/status"
            >
              {loadingDevices ? (
                <Skeleton active paragraph={{ rows: 2 }} />
              ) : !devices || devices.total === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noDevices')} style={{ margin: 0 }} />
              ) : (
                <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '12px 16px' }}>
                  {DISPLAY_STATES.map((state) => (
                    <Flex key={state} justify="space-between" gap={8} data-testid={`home-devices-${state}`}>
                      <Badge color={DISPLAY_COLOUR[state]} text={t(`deviceControl.display.${state}`)} />
                      <Typography.Text strong>{devices.display[state]}</Typography.Text>
                    </Flex>
                  ))}
                </div>
              )}
            </OverviewCard>
          </Col>
          {projectId && (
            <Col xs={24} xl={12}>
              <EnergyOverviewCard projectId={projectId} />
            </Col>
          )}
          <Col xs={24} xl={12}>
            <OverviewCard id="runs" title={t('home.runsCard')} to="/scene/schedule">
              {week.isLoading ? (
                <Skeleton active paragraph={{ rows: 3 }} />
              ) : (
                <List
                  size="small"
                  dataSource={nextRuns}
                  locale={{ emptyText: t('home.noRuns') }}
                  renderItem={(run) => {
                    return (
                      <List.Item
                        key={`${run.sceneId}-${run.gatewayId}-${run.at}-${run.then}`}
                        extra={<Tag color={run.then === 'start' ? 'gold' : 'default'}>{t(`scenes.then.${run.then}`)}</Tag>}
                      >
                        <Space size="middle">
                          <ZonedTime t={t} at={run.at} zones={[run.timezone]} />
                          <Badge color={sceneColour(run.sceneId)} />
                          <Link to={`/scene/detail?id=${run.sceneId}`}>{run.name}</Link>
                          <Typography.Text type="secondary">{run.gatewayName}</Typography.Text>
                        </Space>
                      </List.Item>
                    );
                  }}
                  data-testid="home-runs-list"
                />
              )}
            </OverviewCard>
          </Col>
          <Col span={24}>
            <Card title={t('home.accountCard')} variant="borderless">
              <Descriptions column={{ xs: 1, sm: 2, md: 2, lg: 4, xl: 4, xxl: 4 }} size="small">
                <Descriptions.Item label={t('home.account')}>{user.account}</Descriptions.Item>
                <Descriptions.Item label={t('home.role')}>
                  <RoleText user={user} />
                </Descriptions.Item>
                <Descriptions.Item label={t('home.mode')}>
                  {mode === 'server' ? t('home.modeServer') : t('home.modeSaas')}
                </Descriptions.Item>
                <Descriptions.Item label={t('home.version')}>{info?.version ?? LIMITS.version}</Descriptions.Item>
                {mode === 'server' && (
                  <Descriptions.Item label={t('home.serverIp')}>{info?.serverIp ?? user.server_ip ?? empty}</Descriptions.Item>
                )}
              </Descriptions>
              <Space size="large" wrap style={{ marginTop: 8 }}>
                <Link to="/system/center">
                  <KeyOutlined /> {t('home.goCenter')}
                </Link>
                {canSeeAdministrators(user) && (
                  <Link to="/system/outbox">
                    <MailOutlined /> {t('home.goOutbox')}
                  </Link>
                )}
              </Space>
            </Card>
          </Col>
        </Row>
      </Flex>
    </PageContainer>
  );
}
