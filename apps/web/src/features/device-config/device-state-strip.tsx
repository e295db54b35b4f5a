import { Card, Flex, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceStateBody } from '@lumigrid/contract/browser';
import { DISPLAY_FILL } from '../../components/device-markers/marker-model.ts';
import { useDeviceState } from './api.ts';

const VALUE_STYLE = { fontSize: 20 };

/** How the devices of the status view's place stand now: one compact row above its table. */
export function DeviceStateStrip({ scope }: { scope: DeviceStateBody }) {
  const { t } = useTranslation();
  const state = useDeviceState(scope).data;
  const gatewayCount = state ? state.gateways.online + state.gateways.offline : 0;
  const stats = [
    { key: 'total', value: state?.total },
    { key: 'failure', value: state?.display.failure, colour: DISPLAY_FILL.failure },
    { key: 'offline', value: state?.display.offline, colour: '#fa8c16' },
    { key: 'gatewaysOffline', value: state?.gateways.offline, suffix: `/ ${gatewayCount}` },
    { key: 'openAlerts', value: state?.openAlerts, colour: state?.openAlerts ? DISPLAY_FILL.failure : undefined },
  ] as const;
  return (
    <Card size="small" variant="borderless" data-testid="device-state-strip">
      <Flex wrap gap="8px 48px">
        {stats.map((stat) => (
          <Statistic
            key={stat.key}
            title={t(`deviceConfig.summary.${stat.key}`)}
            value={stat.value ?? '-'}
            loading={!state}
            suffix={'suffix' in stat ? stat.suffix : undefined}
            valueStyle={{ ...VALUE_STYLE, color: 'colour' in stat && stat.value ? stat.colour : undefined }}
            data-testid={`device-state-${stat.key}`}
          />
        ))}
      </Flex>
    </Card>
  );
}
