import { useMemo, useState } from 'react';
import { App, Button, Card, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Gateway, GroupView, SensorLinkageView } from '@lumigrid/contract/browser';
import { useRemoveLinkage, useLinkages } from '../../features/automation/api.ts';
import { linkageSensorKind, linkageSensors, linkageWaits } from '../../features/automation/linkage.ts';
import { useDeviceList } from '../../features/device-config/api.ts';
import { mapDevicesQuery } from '../../features/scenes/catalog.ts';
import { LinkageFormModal } from './linkage-form-modal.tsx';

/**
 * Sensor linkage of a map: which motion or daylight sensor switches which group, at what levels, for how long
 * and in how much daylight. It sits under the map's groups because a linkage drives a group, and the operator
 * asking "which sensor switches these lights" is looking at the groups of the floor.
 */
export function SensorLinkageCard({
  mapId,
  groups,
  gateways,
  editable,
}: {
  mapId: string;
  groups: readonly GroupView[];
  gateways: readonly Gateway[];
  editable: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const linkages = useLinkages(mapId);
  const devices = useDeviceList(mapDevicesQuery(mapId));
  const remove = useRemoveLinkage();
  const [editing, setEditing] = useState<{ linkage?: SensorLinkageView }>();
  const sensors = useMemo(() => linkageSensors(devices.data?.list ?? []), [devices.data]);
  const types = useMemo(() => new Map((devices.data?.list ?? []).map((d) => [d.id, d.type])), [devices.data]);
  const byId = useMemo(() => new Map(gateways.map((g) => [g.id, g])), [gateways]);
  const rows = linkages.data ?? [];
  const linked = useMemo(() => new Set(rows.map((l) => l.sensorId)), [rows]);

  const removeLinkage = async (linkage: SensorLinkageView) => {
    await remove.mutateAsync(linkage.sensorId);
    void message.success(t('automation.linkage.removed', { name: linkage.sensorName }));
  };

  const percent = (n: number) => `${n} %`;
  return (
    <Card
      variant="borderless"
      style={{ marginTop: 16 }}
      title={t('automation.linkage.title')}
      extra={
        editable && (
          <Button
            icon={<PlusOutlined />}
            disabled={sensors.length === 0 || sensors.every((s) => linked.has(s.id))}
            onClick={() => setEditing({})}
            data-testid="linkage-add"
          >
            {t('automation.linkage.add')}
          </Button>
        )
      }
      data-testid="sensor-linkage"
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }} data-testid="linkage-mode-hint">
        {t('automation.linkage.modeHint')}{' '}
        <Link to="/gateway/list" style={{ whiteSpace: 'nowrap' }}>
          {t('automation.linkage.modeLink')}
        </Link>
      </Typography.Paragraph>
      <Table<SensorLinkageView>
        rowKey="sensorId"
        size="middle"
        loading={linkages.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 960 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={sensors.length === 0 ? t('automation.linkage.noSensors') : t('automation.linkage.empty')}
            />
          ),
        }}
        onRow={(row) => ({ 'data-testid': `linkage-row-${row.sensorName}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('automation.linkage.sensor'),
            dataIndex: 'sensorName',
            width: 210,
            render: (name: string, row) => {
              const kind = linkageSensorKind(types.get(row.sensorId) ?? -1);
              return (
                <Space size={4} wrap>
                  <span>{name}</span>
                  {kind && <Tag bordered={false}>{t(`automation.linkage.kind.${kind}`)}</Tag>}
                </Space>
              );
            },
          },
          { title: t('automation.linkage.group'), dataIndex: 'groupName', width: 170 },
          { title: t('automation.linkage.detectShort'), dataIndex: 'onDetectPercent', width: 110, align: 'right', render: percent },
          {
            title: t('automation.linkage.clearShort'),
            dataIndex: 'onClearPercent',
            width: 110,
            align: 'right',
            render: (n: number) => (n === 0 ? t('automation.linkage.off') : percent(n)),
          },
          {
            title: t('automation.linkage.holdShort'),
            dataIndex: 'holdS',
            width: 100,
            align: 'right',
            render: (s: number) => t('automation.linkage.seconds', { count: s }),
          },
          {
            title: t('automation.linkage.daylightShort'),
            dataIndex: 'lux',
            width: 150,
            render: (lux: number | null) => (lux === null ? t('automation.linkage.always') : t('automation.linkage.below', { lux })),
          },
          {
            title: t('automation.linkage.state'),
            key: 'state',
            width: 200,
            render: (_: unknown, row) => {
              const waits = linkageWaits(row, byId);
              return (
                <Space size={4} wrap>
                  {waits.sync ? <Tag color="blue">{t('groups.waitingSync')}</Tag> : <Tag color="green">{t('groups.onGateway')}</Tag>}
                  {waits.sensorMode && (
                    <Tooltip title={t('automation.linkage.independentHint')}>
                      <Link to={`/gateway/detail?id=${row.gatewayId}`}>
                        <Tag color="orange" data-testid="linkage-independent">
                          {t('automation.linkage.independent')}
                        </Tag>
                      </Link>
                    </Tooltip>
                  )}
                </Space>
              );
            },
          },
          ...(editable
            ? [
                {
                  title: t('groups.actions'),
                  key: 'actions',
                  width: 150,
                  render: (_: unknown, row: SensorLinkageView) => (
                    <Space size={4}>
                      <Button size="small" type="link" onClick={() => setEditing({ linkage: row })} data-testid="linkage-edit">
                        {t('groups.edit')}
                      </Button>
                      <DangerConfirm
                        title={t('automation.linkage.removeConfirm', { name: row.sensorName })}
                        description={t('automation.linkage.removeHint')}
                        okText={t('groups.delete')}
                        onConfirm={() => removeLinkage(row).catch(() => undefined)}
                      >
                        <Button size="small" type="link" danger data-testid="linkage-delete">
                          {t('groups.delete')}
                        </Button>
                      </DangerConfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
        data-testid="linkage-table"
      />
      <LinkageFormModal
        open={editing !== undefined}
        editing={editing?.linkage}
        sensors={sensors}
        groups={groups}
        linked={linked}
        onClose={() => setEditing(undefined)}
      />
    </Card>
  );
}
