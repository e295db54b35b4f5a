import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Modal, Popconfirm, Progress, Result, Select, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GATEWAY_FIRMWARE_TARGETS, type FirmwareCheck, type Gateway, type GatewayFirmwareTarget } from '@lumigrid/contract/browser';
import {
  FIRMWARE_POLL_MS,
  gatewayKeys,
  useCheckFirmware,
  useFirmwareProgress,
  useStartFirmwareUpdate,
} from '../../features/gateways/api.ts';
import { firmwareOutcome } from '../../features/gateways/status.ts';

const OUTCOME_KEYS = {
  success: { key: 'realtime.update.success', status: 'success' },
  failure: { key: 'realtime.update.failure', status: 'error' },
  timeout: { key: 'realtime.update.timeout', status: 'warning' },
} as const;

/**
 * The firmware update of spec section 4: check whether a part has a newer file (available / latest), confirm,
 * then poll the progress until the result (1 success, 2 failure, else time-out). The same result also
 * arrives as the real-time notice the shell shows.
 */
export function FirmwareModal({ open, onClose, gateway }: { open: boolean; onClose(): void; gateway: Gateway }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<GatewayFirmwareTarget>('gateway');
  const [check, setCheck] = useState<FirmwareCheck>();
  const [watching, setWatching] = useState(gateway.activity === 'updating');
  const checkFirmware = useCheckFirmware();
  const start = useStartFirmwareUpdate();
  const progress = useFirmwareProgress(open ? gateway.id : undefined, watching ? FIRMWARE_POLL_MS : false);
  const outcome = firmwareOutcome(progress.data);

  useEffect(() => {
    if (outcome === 'running') setWatching(true);
    else if (watching && outcome !== 'idle') {
      setWatching(false);
      // The check said "available" before the update; it is stale now.
      setCheck(undefined);
      void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
    }
  }, [outcome, watching, queryClient]);

  const runCheck = async () => {
    setCheck(undefined);
    setCheck(await checkFirmware.mutateAsync({ id: gateway.id, target }));
  };

  const startUpdate = async () => {
    const view = await start.mutateAsync({ id: gateway.id, target });
    queryClient.setQueryData(gatewayKeys.firmware(gateway.id), view);
    setWatching(true);
  };

  // The last update's progress and result, unless a fresh check is being looked at.
  const shown = progress.data && outcome !== 'idle' && (outcome === 'running' || check === undefined) ? progress.data : undefined;
  const ended = shown && (outcome === 'success' || outcome === 'failure' || outcome === 'timeout') ? OUTCOME_KEYS[outcome] : undefined;

  return (
    <Modal
      open={open}
      title={t('gateway.firmware.title', { name: gateway.name })}
      onCancel={onClose}
      footer={null}
      width={620}
      destroyOnHidden
    >
      <div data-testid="firmware-modal">
        <Space wrap style={{ marginBottom: 16 }}>
          <Select<GatewayFirmwareTarget>
            value={target}
            style={{ width: 200 }}
            disabled={outcome === 'running'}
            onChange={(next) => {
              setTarget(next);
              setCheck(undefined);
            }}
            options={GATEWAY_FIRMWARE_TARGETS.map((value) => ({ value, label: t(`gateway.version.${value}`) }))}
          />
          <Button onClick={() => void runCheck().catch(() => undefined)} loading={checkFirmware.isPending} disabled={outcome === 'running'}>
            {t('gateway.firmware.check')}
          </Button>
        </Space>
        {check && (
          <>
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label={t('gateway.firmware.current')}>{check.current || t('common.empty')}</Descriptions.Item>
              <Descriptions.Item label={t('gateway.firmware.latestVersion')}>{check.latest}</Descriptions.Item>
            </Descriptions>
            {check.state === 'available' ? (
              <Alert
                style={{ marginTop: 16 }}
                type="info"
                showIcon
                message={t('gateway.firmware.available', { version: check.latest })}
                description={t('gateway.firmware.duration')}
                action={
                  // Confirmed by the button, not in a second modal over this one.
                  <Popconfirm
                    title={t('gateway.firmware.confirmTitle')}
                    description={t('gateway.firmware.confirm', { name: gateway.name, version: check.latest })}
                    okText={t('gateway.firmware.start')}
                    cancelText={t('gateway.cancel')}
                    onConfirm={() => startUpdate().catch(() => undefined)}
                  >
                    <Button type="primary" disabled={!gateway.online || outcome === 'running'} loading={start.isPending}>
                      {t('gateway.firmware.start')}
                    </Button>
                  </Popconfirm>
                }
              />
            ) : (
              <Alert style={{ marginTop: 16 }} type="success" showIcon message={t('gateway.firmware.latest')} />
            )}
          </>
        )}
        {shown && (
          <div style={{ marginTop: 16 }} data-testid="firmware-progress">
            <Progress
              aria-label={t('gateway.firmware.button')}
              percent={shown.progress}
              status={outcome === 'running' ? 'active' : outcome === 'success' ? 'success' : outcome === 'idle' ? 'normal' : 'exception'}
            />
            {outcome === 'running' && shown.stage && (
              <span>
                {t('gateway.firmware.stage', {
                  stage: t(`gateway.firmware.stages.${stageKey(shown.stage)}`),
                  version: shown.version ?? '',
                })}
              </span>
            )}
          </div>
        )}
        {ended && <Result status={ended.status} title={t(ended.key, { name: gateway.name })} />}
      </div>
    </Modal>
  );
}

const STAGES = ['requested', 'downloading', 'verifying', 'installing', 'rebooting', 'done', 'failed'] as const;

/** The stage as a catalogue key; an unknown stage reads as requested. */
function stageKey(stage: string): (typeof STAGES)[number] {
  return (STAGES as readonly string[]).includes(stage) ? (stage as (typeof STAGES)[number]) : 'requested';
}
