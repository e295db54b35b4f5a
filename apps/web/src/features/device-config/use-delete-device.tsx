import { useState } from 'react';
import { App, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Device } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { useConfirmDeletion, useDeleteDevices } from './api.ts';
import { FormModal } from '../../components/form-modal.tsx';

type Target = Pick<Device, 'id' | 'name' | 'gatewayId'>;

/**
 * Deleting a device (spec section 4): from the map only, or from the gateway as well. When the gateway fails
 * or does not answer (100205, "device deletion failed, confirm to continue"), the user is asked to confirm,
 * and del_device_succeed removes the device from the cloud.
 */
export function useDeleteDevice(onDeleted?: (device: Target) => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const remove = useDeleteDevices();
  const confirm = useConfirmDeletion();
  const [target, setTarget] = useState<Target>();
  const [fromGateway, setFromGateway] = useState(true);

  const done = (device: Target) => {
    void message.success(t('deviceConfig.deleted', { name: device.name }));
    onDeleted?.(device);
  };

  const submit = async () => {
    if (!target) return;
    const device = target;
    try {
      await remove.mutateAsync({ ids: [device.id], fromGateway });
      setTarget(undefined);
      done(device);
    } catch (error) {
      setTarget(undefined);
      if (error instanceof ApiError && error.code === 100205) {
        modal.confirm({
          title: t('deviceConfig.deleteFailedTitle'),
          content: error.message,
          okText: t('deviceConfig.continueDelete'),
          okButtonProps: { danger: true },
          cancelText: t('deviceConfig.cancel'),
          onOk: async () => {
            await confirm.mutateAsync({ gatewayId: device.gatewayId, deviceId: device.id });
            done(device);
          },
        });
      } else if (error instanceof Error) {
        void message.error(error.message);
      }
    }
  };

  const dialog = (
    <FormModal
      open={target !== undefined}
      title={target ? t('deviceConfig.deleteTitle', { name: target.name }) : undefined}
      okText={t('deviceConfig.delete')}
      okButtonProps={{ danger: true }}
      confirmLoading={remove.isPending}
      onOk={() => void submit()}
      onCancel={() => setTarget(undefined)}
    >
      <Radio.Group value={fromGateway} onChange={(e) => setFromGateway(e.target.value as boolean)} data-testid="delete-scope">
        <Space direction="vertical">
          <Radio value={false}>{t('deviceConfig.deleteMapOnly')}</Radio>
          <Radio value={true}>{t('deviceConfig.deleteFromGateway')}</Radio>
        </Space>
      </Radio.Group>
    </FormModal>
  );

  return {
    ask: (device: Target) => {
      setFromGateway(true);
      setTarget(device);
    },
    dialog,
  };
}
