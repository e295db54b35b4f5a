import { App } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../i18n/time-format.ts';
import { currentLang } from '../../i18n/index.ts';
import type { Gateway } from '@lumigrid/contract/browser';
import {
  gatewayApi,
  useIdentifyGateway,
  useImportDevices,
  useRestartGateway,
  useSensorMode,
  useSyncGatewayTime,
  useUnbindGateway,
} from '../../features/gateways/api.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/** A clock reading on the gateway's own clock: its zone, UTC when it keeps none (as it runs its schedules). */
const stamp = (iso: string, zone: string | null | undefined) =>
  formatTime(iso, { zone: zone || 'UTC', lang: currentLang(), precision: 'second' });

/**
 * The one-step gateway commands with their confirmations and feedback, shared by the list and the detail.
 * Failures (offline 100101, timeouts, 260013) were shown by the API client in the server's words.
 */
export function useGatewayActions() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const notifyOnSuccess = useNotifyOnSuccess();
  const identify = useIdentifyGateway();
  const restart = useRestartGateway();
  const syncTime = useSyncGatewayTime();
  const importDevices = useImportDevices();
  const unbind = useUnbindGateway();
  const sensorMode = useSensorMode();

  /** A command that cannot be taken back: asked first with a danger button, `done` only when the gateway took it. */
  const confirmDanger = (
    command: 'restart' | 'unbind',
    gateway: Gateway,
    send: (gatewayId: string) => Promise<unknown>,
    done: () => void,
  ) =>
    modal.confirm({
      title: t(`gateway.${command}Title`),
      content: t(`gateway.${command}Confirm`, { name: gateway.name }),
      okText: t(`gateway.${command}`),
      okButtonProps: { danger: true },
      cancelText: t('gateway.cancel'),
      onOk: () =>
        send(gateway.id)
          .then(done)
          .catch(() => undefined),
    });

  return {
    identify: (gateway: Gateway) => notifyOnSuccess(identify.mutateAsync(gateway.id), t('gateway.identified', { name: gateway.name })),

    restart: (gateway: Gateway, onAccepted?: () => void) =>
      confirmDanger('restart', gateway, restart.mutateAsync, () => {
        void message.info(t('gateway.restarting', { name: gateway.name }));
        onAccepted?.();
      }),

    /** Reads the clock, shows it against the cloud's, and offers to set it. */
    clock: async (gateway: Gateway) => {
      const time = await gatewayApi.readTime(gateway.id).catch(() => undefined);
      if (!time) return;
      const seconds = Math.round(time.driftMs / 1000);
      const zone = time.timezone ?? gateway.settings.timezone;
      // Within a second the clocks agree: nothing to warn about, though the user may still set it.
      const agree = Math.abs(seconds) <= 1;
      modal.confirm({
        title: t('gateway.clockTitle', { name: gateway.name }),
        icon: agree ? <CheckCircleFilled style={{ color: '#52c41a' }} /> : undefined,
        content: (
          <div data-testid="gateway-clock">
            <div>{t('gateway.gatewayTime', { time: stamp(time.gatewayTime, zone) })}</div>
            <div>{t('gateway.cloudTime', { time: stamp(time.cloudTime, zone) })}</div>
            <div>{agree ? t('gateway.clockAgrees', { seconds }) : t('gateway.drift', { seconds })}</div>
            {time.timezone && <div>{t('gateway.timezoneIs', { timezone: time.timezone })}</div>}
          </div>
        ),
        okText: t('gateway.syncClock'),
        cancelText: t('gateway.close'),
        onOk: () =>
          syncTime
            .mutateAsync(gateway.id)
            .then((after) => void message.success(t('gateway.clockSynced', { time: stamp(after.gatewayTime, zone) })))
            .catch(() => undefined),
      });
    },

    /** Checks what joined the gateway, shows the counts, then imports the new ones. */
    importDevices: async (gateway: Gateway) => {
      const found = await gatewayApi.checkImport(gateway.id).catch(() => undefined);
      if (!found) return;
      if (found.fresh === 0) {
        modal.info({ title: t('gateway.importTitle'), content: t('gateway.importNothing', { total: found.total }) });
        return;
      }
      modal.confirm({
        title: t('gateway.importTitle'),
        content: t('gateway.importConfirm', { total: found.total, fresh: found.fresh }),
        okText: t('gateway.import'),
        cancelText: t('gateway.cancel'),
        onOk: () =>
          importDevices
            .mutateAsync(gateway.id)
            .then((result) => void message.success(t('gateway.imported', { imported: result.imported, total: result.total })))
            .catch(() => undefined),
      });
    },

    /** sensor_self_oper (independent) or sensor_sync_model (linkage): every sensor of the gateway at once. */
    sensorMode: (gateway: Gateway, mode: 'independent' | 'linkage') =>
      modal.confirm({
        title: t(`gateway.sensors.${mode}Title`),
        content: t(`gateway.sensors.${mode}Confirm`, { name: gateway.name }),
        okText: t('gateway.sensors.apply'),
        cancelText: t('gateway.cancel'),
        onOk: () =>
          sensorMode
            .mutateAsync({ gatewayId: gateway.id, mode })
            .then((done) => void message.success(t(`gateway.sensors.${done.mode}Done`, { count: done.count })))
            .catch(() => undefined),
      }),

    // 260013 (devices still linked) is shown in the server's words.
    unbind: (gateway: Gateway, onDone?: () => void) =>
      confirmDanger('unbind', gateway, unbind.mutateAsync, () => {
        void message.success(t('gateway.unbound', { name: gateway.name }));
        onDone?.();
      }),
  };
}
