import { Card, Col, Row, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FleetVersion, PlatformTenant } from '@lumigrid/contract/browser';
import { usePlatformOverview } from '../../features/platform/api.ts';
import { formatBytes } from '../../features/backup/api.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { Figure, OverviewCard } from './overview-card.tsx';

/**
 * The platform administrator's part of /home: every tenant with its gateways, open alarms and storage, the
 * gateway firmware in the fleet, and the way to the fleet firmware rollouts.
 */
export function PlatformOverview() {
  const { t } = useTranslation();
  const overview = usePlatformOverview();
  const data = overview.data;
  const tenants = data?.tenants ?? [];
  const sum = (pick: (tenant: PlatformTenant) => number) => (data ? tenants.reduce((n, tenant) => n + pick(tenant), 0) : undefined);

  return (
    <section aria-label={t('platform.title')} data-testid="platform-overview">
      <Typography.Paragraph type="secondary">{t('platform.hint')}</Typography.Paragraph>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={12} xl={8}>
          <OverviewCard id="fleet" title={t('platform.fleetCard')} to="/system/rollout">
            <Row gutter={16}>
              <Col span={8}>
                <Figure id="fleet-online" title={t('home.online')} value={sum((x) => x.gatewaysOnline)} />
              </Col>
              <Col span={8}>
                <Figure id="fleet-offline" title={t('home.offline')} value={sum((x) => x.gatewaysOffline)} danger />
              </Col>
              <Col span={8}>
                <Figure id="fleet-pool" title={t('platform.pool')} value={data?.poolGateways} />
              </Col>
            </Row>
          </OverviewCard>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <OverviewCard id="platform-alarms" title={t('platform.alarmsCard')} to="/system/account">
            <Row gutter={16}>
              <Col span={12}>
                <Figure id="platform-open-alarms" title={t('platform.openAlarms')} value={sum((x) => x.openAlarms)} danger />
              </Col>
              <Col span={12}>
                <Figure id="platform-tenants" title={t('platform.tenants')} value={data ? tenants.length : undefined} />
              </Col>
            </Row>
          </OverviewCard>
        </Col>
        <Col xs={24} xl={8}>
          <Card title={t('platform.storageCard')} variant="borderless" style={{ height: '100%' }}>
            <Typography.Text data-testid="platform-database">
              {t('platform.database')}: {data ? formatBytes(data.databaseBytes) : '-'}
            </Typography.Text>
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('platform.tenants')} variant="borderless">
            <Table<PlatformTenant>
              rowKey="id"
              size="small"
              loading={overview.isLoading}
              dataSource={tenants}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <EmptyHint text={t('platform.noTenants')} /> }}
              data-testid="platform-tenants-table"
              columns={[
                {
                  title: t('platform.account'),
                  dataIndex: 'account',
                  render: (_, row) => (
                    <>
                      {row.account} {!row.enabled && <Tag>{t('platform.disabled')}</Tag>}
                    </>
                  ),
                },
                { title: t('platform.name'), dataIndex: 'name' },
                { title: t('platform.gatewaysOnline'), dataIndex: 'gatewaysOnline', align: 'right' },
                {
                  title: t('platform.gatewaysOffline'),
                  dataIndex: 'gatewaysOffline',
                  align: 'right',
                  render: (n: number) => (n > 0 ? <Typography.Text type="danger">{n}</Typography.Text> : n),
                },
                { title: t('platform.devices'), dataIndex: 'devices', align: 'right' },
                {
                  title: t('platform.openAlarms'),
                  dataIndex: 'openAlarms',
                  align: 'right',
                  render: (n: number) => (n > 0 ? <Typography.Text type="danger">{n}</Typography.Text> : n),
                },
                { title: t('platform.storage'), dataIndex: 'storageBytes', align: 'right', render: (n: number) => formatBytes(n) },
              ]}
            />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('platform.firmware')} variant="borderless">
            <Table<FleetVersion>
              rowKey={(row) => `${row.model}/${row.version}`}
              size="small"
              loading={overview.isLoading}
              dataSource={data?.firmware ?? []}
              pagination={false}
              data-testid="platform-firmware-table"
              columns={[
                { title: t('platform.model'), dataIndex: 'model', render: (m: string) => m || t('platform.unknown') },
                { title: t('platform.version'), dataIndex: 'version', render: (v: string) => v || t('platform.unknown') },
                { title: t('platform.count'), dataIndex: 'count', align: 'right' },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </section>
  );
}
