import { App, Button, Card, Descriptions, Empty, Space, Typography } from 'antd';
import { PageContainer } from '../../../components/page-container.tsx';
import { useUserMay } from '../../../components/use-user-may.ts';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { deviceType } from '@lumigrid/contract/browser';
import { useDevice, useRefreshNetwork, useSensorOnOff } from '../../../features/device-config/api.ts';
import { useGatewayDetail } from '../../../features/gateways/api.ts';
import { useSiteTimes } from '../../../features/projects/site-time.ts';
import { displayTag, placeOf, typeName } from '../../../features/device-config/columns.tsx';
import { useDeleteDevice } from '../../../features/device-config/use-delete-device.tsx';
import { ParamEditor } from './param-editor.tsx';
import { useSearchParam } from '../../../components/use-search-param.ts';

/** /device/config/detail?id= (spec section 2): one device, its parameters, sensing, network refresh and deletion. */
export default function DeviceConfigDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const id = useSearchParam('id');
  const editable = useUserMay('write');
  const operate = useUserMay('control');
  const device = useDevice(id);
  const sensor = useSensorOnOff();
  const refresh = useRefreshNetwork();
  const deletion = useDeleteDevice(() => void navigate('/device/config/list'));
  const empty = t('common.empty');
  const siteTime = useSiteTimes();
  // A device on no map waits on its gateway's map: its times are that site's.
  const gatewayProjectId = useGatewayDetail(device.data?.mapId ? undefined : device.data?.gatewayId).data?.projectId;
  const back = <Link to="/device/config/list">{t('deviceConfig.back')}</Link>;

  if (!id || device.isError) {
    return (
      <PageContainer title={t('deviceConfig.configTitle')}>
        <Card>
          <Empty description={t('deviceConfig.noDevice')}>{back}</Empty>
        </Card>
      </PageContainer>
    );
  }
  const d = device.data;
  const isSensor = d ? Boolean(deviceType(d.type)?.sensor) : false;

  const setSensing = async (on: boolean) => {
    if (!d) return;
    await sensor.mutateAsync({ id: d.id, on });
    void message.success(t('deviceConfig.sensor.done'));
  };

  return (
    <PageContainer
      title={d ? t('deviceConfig.detailTitle', { name: d.name }) : t('deviceConfig.configTitle')}
      loading={device.isLoading}
      extra={back}
    >
      {d && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Card
            title={t('deviceConfig.info')}
            extra={
              <Space wrap>
                {isSensor && operate && (
                  <>
                    {(['on', 'off'] as const).map((to) => (
                      <Button
                        key={to}
                        onClick={() => void setSensing(to === 'on').catch(() => undefined)}
                        loading={sensor.isPending}
                        data-testid={`sensing-${to}`}
                      >
                        {t(`deviceConfig.sensor.${to}`)}
                      </Button>
                    ))}
                  </>
                )}
                {editable && (
                  <Button
                    onClick={() =>
                      void refresh
                        .mutateAsync(d.id)
                        .then(() => message.success(t('deviceConfig.refreshed')))
                        .catch(() => undefined)
                    }
                    loading={refresh.isPending}
                  >
                    {t('deviceConfig.refreshNetwork')}
                  </Button>
                )}
                {editable && (
                  <Button danger onClick={() => deletion.ask(d)} data-testid="device-delete">
                    {t('deviceConfig.delete')}
                  </Button>
                )}
              </Space>
            }
          >
            <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
              <Descriptions.Item label={t('deviceConfig.field.type')}>{typeName(t, d.type)}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.addr')}>
                <Typography.Text copyable>{d.addr}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.networkAddress')}>{d.networkAddress || empty}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.gateway')}>{d.gatewayName || empty}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.place')}>{placeOf(t, d)}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.display')}>{displayTag(t, d.display)}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.firmware')}>{d.firmware || empty}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.model')}>{d.model || empty}</Descriptions.Item>
              <Descriptions.Item label={t('deviceConfig.field.lastUpdate')}>
                {siteTime(d.mapId ? { mapId: d.mapId } : { projectId: gatewayProjectId }, d.lastUpdate, 'second')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <ParamEditor key={d.id} device={d} editable={editable} />
        </Space>
      )}
      {deletion.dialog}
    </PageContainer>
  );
}
