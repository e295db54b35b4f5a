import { useEffect, useRef, useState } from 'react';
import { App, Button, Card, Descriptions, Dropdown, Empty, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { Link, useNavigate } from 'react-router';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { useTranslation } from 'react-i18next';
import { GATEWAY_FIRMWARE_TARGETS, type BridgeView, type Gateway } from '@lumigrid/contract/browser';
import { useGatewayDetail, useSuperGatewayDevices, useUnbindBridge } from '../../features/gateways/api.ts';
import { PresenceTag } from '../../features/gateways/presence-tag.tsx';
import { ValueAge } from '../../components/value-age.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { useUserMay } from '../../components/use-user-may.ts';
import { syncLabel } from '../../features/gateways/status.ts';
import { FirmwareModal } from './firmware-modal.tsx';
import { useGatewayActions } from './gateway-actions.tsx';
import {
  GatewayLonLatModal,
  GatewayParamsModal,
  MicrowaveModal,
  MoveGatewayModal,
  OpenNetworkModal,
  RenameGatewayModal,
} from './gateway-dialogs.tsx';
import { useSearchParam } from '../../components/use-search-param.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

type Dialog = 'rename' | 'move' | 'params' | 'lonLat' | 'firmware' | 'network' | 'microwave' | undefined;

/** The bridges of a super gateway (spec section 3: name, bridge quantity), each of which can be unbound. */
function BridgeList({ gateway, editable }: { gateway: Gateway; editable: boolean }) {
  const { t } = useTranslation();
  const notifyOnSuccess = useNotifyOnSuccess();
  const bridges = useSuperGatewayDevices(gateway.id, '0');
  const unbind = useUnbindBridge();
  return (
    <Card
      title={t('gateway.bridges')}
      extra={
        <span data-testid="bridge-quantity">
          {t('gateway.bridgeQuantity', { count: bridges.data?.bridgeQuantity ?? gateway.bridgeQuantity })}
        </span>
      }
      style={{ marginTop: 16 }}
    >
      <Table<BridgeView>
        rowKey="id"
        size="small"
        pagination={false}
        loading={bridges.isLoading}
        dataSource={bridges.data?.bridges ?? []}
        columns={[
          { title: t('gateway.field.name'), dataIndex: 'name' },
          { title: t('gateway.field.address'), dataIndex: 'addr', width: 140 },
          {
            title: t('gateway.field.kind'),
            dataIndex: 'kind',
            width: 150,
            render: (kind: string) =>
              t(
                kind === 'bridge-wisun'
                  ? 'gateway.bridgeKind.wisun'
                  : kind === 'bridge-dali'
                    ? 'gateway.bridgeKind.dali'
                    : 'gateway.bridgeKind.zigbee',
              ),
          },
          { title: t('gateway.field.deviceCount'), dataIndex: 'deviceCount', width: 110, align: 'right' },
          {
            title: t('gateway.field.status'),
            dataIndex: 'typeStatus',
            width: 100,
            render: (value: number) =>
              value === 2 ? <Tag>{t('gateway.status.offline')}</Tag> : <Tag color="success">{t('gateway.status.normal')}</Tag>,
          },
          {
            title: t('gateway.actions'),
            width: 110,
            render: (_, row) =>
              editable ? (
                <DangerConfirm
                  title={t('gateway.unbindBridgeConfirm', { name: row.name })}
                  okText={t('gateway.unbind')}
                  onConfirm={() =>
                    // 260021 (the bridge or its devices are on a map) was shown in the server's words.
                    notifyOnSuccess(
                      unbind.mutateAsync({ gatewayId: gateway.id, bridgeId: row.id }),
                      t('gateway.bridgeUnbound', { name: row.name }),
                    )
                  }
                >
                  <Typography.Link type="danger">{t('gateway.unbind')}</Typography.Link>
                </DangerConfirm>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}

/** A gateway with every field of spec section 3 and its actions. The gateway is the query id. */
export default function GatewayDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const gatewayId = useSearchParam('id');
  const editable = useUserMay('write');
  const operate = useUserMay('control');
  const detail = useGatewayDetail(gatewayId);
  const actions = useGatewayActions();
  const [dialog, setDialog] = useState<Dialog>();
  const restarting = useRef(false);
  const gateway = detail.data;
  const empty = t('common.empty');
  const { time } = useSiteTime({ projectId: gateway?.projectId });

  // Spec: a restart takes the gateway offline and it comes back in 1-2 minutes; say so when it is back.
  useEffect(() => {
    if (!gateway) return;
    if (gateway.activity === 'restarting') restarting.current = true;
    else if (restarting.current && gateway.online) {
      restarting.current = false;
      void message.success(t('gateway.backOnline', { name: gateway.name }));
    }
  }, [gateway, message, t]);

  if (!gatewayId)
    return <Result status="404" title={t('gateway.notFound')} extra={<Link to="/gateway/list">{t('gateway.backToList')}</Link>} />;
  if (detail.isError)
    return <Result status="warning" title={t('gateway.notFound')} extra={<Link to="/gateway/list">{t('gateway.backToList')}</Link>} />;
  if (!gateway) return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} />;

  const sync = syncLabel(gateway.syncStatus);
  const orEmpty = (value: string | number | null) => (value === null || value === '' ? empty : String(value));

  return (
    <PageContainer
      title={gateway.name}
      tags={[
        <PresenceTag key="presence" gateway={gateway} testId="gateway-presence" />,
        <Tag key="sync" color={sync.color}>
          {t(sync.key)}
        </Tag>,
        ...(gateway.superGateway
          ? [
              <Tag key="super" color="purple">
                {t('gateway.super')}
              </Tag>,
            ]
          : []),
      ]}
      extra={
        <Space wrap>
          {operate && <Button onClick={() => void actions.identify(gateway)}>{t('gateway.identify')}</Button>}
          {operate && <Button onClick={() => void actions.clock(gateway)}>{t('gateway.clock')}</Button>}
          {operate && (
            <Button danger onClick={() => actions.restart(gateway, () => (restarting.current = true))}>
              {t('gateway.restart')}
            </Button>
          )}
          {editable && (
            <Button data-testid="gateway-open-network" onClick={() => setDialog('network')}>
              {t('gateway.network.button')}
            </Button>
          )}
          {editable && <Button onClick={() => void actions.importDevices(gateway)}>{t('gateway.import')}</Button>}
          {editable && (
            <Dropdown
              menu={{
                items: [
                  { key: 'independent', label: t('gateway.sensors.independentTitle') },
                  { key: 'linkage', label: t('gateway.sensors.linkageTitle') },
                  { type: 'divider' },
                  { key: 'microwave', label: t('gateway.microwave.title') },
                ],
                onClick: ({ key }) => {
                  if (key === 'microwave') setDialog('microwave');
                  else actions.sensorMode(gateway, key as 'independent' | 'linkage');
                },
              }}
            >
              <Button data-testid="gateway-sensors">
                {t('gateway.sensors.button')} <DownOutlined />
              </Button>
            </Dropdown>
          )}
          {editable && (
            <Button type="primary" onClick={() => setDialog('firmware')}>
              {t('gateway.firmware.button')}
            </Button>
          )}
        </Space>
      }
    >
      <Card
        title={t('gateway.basics')}
        extra={
          editable && (
            <Space wrap>
              <Typography.Link onClick={() => setDialog('rename')}>{t('gateway.rename')}</Typography.Link>
              <Typography.Link onClick={() => setDialog('move')}>{t('gateway.move')}</Typography.Link>
              <Typography.Link onClick={() => setDialog('params')}>{t('gateway.params')}</Typography.Link>
              <Typography.Link onClick={() => setDialog('lonLat')}>{t('gateway.lonLat')}</Typography.Link>
              <Typography.Link type="danger" onClick={() => actions.unbind(gateway, () => void navigate('/gateway/list'))}>
                {t('gateway.unbind')}
              </Typography.Link>
            </Space>
          )
        }
      >
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="middle" data-testid="gateway-fields">
          <Descriptions.Item label={t('gateway.field.name')}>{gateway.name}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.mac')}>
            <Typography.Text copyable>{gateway.mac}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.ip')}>{orEmpty(gateway.ip)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.networkAddress')}>{orEmpty(gateway.networkAddress)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.panId')}>{orEmpty(gateway.panId)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.channel')}>{orEmpty(gateway.channel)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.largeGroup')}>{orEmpty(gateway.largeGroupNumber)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.longitude')}>{orEmpty(gateway.longitude)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.latitude')}>{orEmpty(gateway.latitude)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.place')}>
            {[gateway.projectName, gateway.buildName, gateway.mapName].join(' / ')}
          </Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.deviceCount')}>{gateway.deviceCount}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.model')}>{orEmpty(gateway.model)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.timezone')}>{orEmpty(gateway.settings.timezone)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.reportInterval')}>{orEmpty(gateway.settings.reportIntervalS)}</Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.sensorMode')}>
            {t(gateway.settings.sensorMode === 'linkage' ? 'gateway.sensorMode.linkage' : 'gateway.sensorMode.independent')}
          </Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.configVersion')}>
            {t('gateway.versionPair', { synced: gateway.syncedVersion, config: gateway.configVersion })}
          </Descriptions.Item>
          <Descriptions.Item label={t('gateway.field.lastSeen')}>
            {gateway.lastSeenAt ? (
              <Space size={8} wrap>
                <span data-testid="gateway-last-seen">{time(gateway.lastSeenAt, 'second')}</span>
                <ValueAge
                  at={gateway.lastSeenAt}
                  reportIntervalS={gateway.settings.reportIntervalS}
                  markStale={gateway.presence === 'online'}
                  testId="gateway-last-seen-age"
                />
              </Space>
            ) : (
              empty
            )}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('gateway.field.versions')} style={{ marginTop: 16 }}>
        <Descriptions column={{ xs: 1, md: 3, xl: 6 }} size="small" data-testid="gateway-versions">
          {GATEWAY_FIRMWARE_TARGETS.map((part) => (
            <Descriptions.Item key={part} label={t(`gateway.version.${part}`)}>
              {/* A version is one token: never broken across lines. */}
              <span style={{ whiteSpace: 'nowrap' }}>{gateway.versions[part] || empty}</span>
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      {gateway.superGateway ? <BridgeList gateway={gateway} editable={editable} /> : null}
      {!gateway.superGateway && gateway.deviceCount === 0 && (
        <Card style={{ marginTop: 16 }}>
          <Empty description={t('gateway.noDevices')} />
        </Card>
      )}
      <RenameGatewayModal open={dialog === 'rename'} gateway={gateway} onClose={() => setDialog(undefined)} />
      <MoveGatewayModal open={dialog === 'move'} gateway={gateway} onClose={() => setDialog(undefined)} />
      <GatewayParamsModal open={dialog === 'params'} gateway={gateway} onClose={() => setDialog(undefined)} />
      <GatewayLonLatModal open={dialog === 'lonLat'} gateway={gateway} onClose={() => setDialog(undefined)} />
      <OpenNetworkModal open={dialog === 'network'} gateway={gateway} onClose={() => setDialog(undefined)} />
      <MicrowaveModal open={dialog === 'microwave'} gateway={gateway} onClose={() => setDialog(undefined)} />
      {dialog === 'firmware' && <FirmwareModal open gateway={gateway} onClose={() => setDialog(undefined)} />}
    </PageContainer>
  );
}
