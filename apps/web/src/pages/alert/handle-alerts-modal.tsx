import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALERT_LIMITS } from '@lumigrid/contract/browser';
import { useHandleAlerts } from '../../features/alerts/api.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { useChosenRowsForm } from './use-chosen-rows-form.ts';

/** Marks the chosen alerts handled with one note; open while `ids` is not empty. */
export function HandleAlertsModal({ ids, onClose }: { ids: string[]; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const handle = useHandleAlerts();
  const { form, submit, afterClose } = useChosenRowsForm<{ note: string }>(
    ({ note }) => handle.mutateAsync({ ids, note: note?.trim() ?? '' }),
    (count) => t('alerts.handledDone', { count }),
    onClose,
  );

  return (
    <FormModal
      open={ids.length > 0}
      title={t('alerts.handleTitle', { count: ids.length })}
      okText={t('alerts.markHandled')}
      confirmLoading={handle.isPending}
      onSubmit={submit}
      onCancel={() => onClose(false)}
      afterClose={afterClose}
      okButtonProps={{ 'data-testid': 'alerts-handle-ok' } as Record<string, string>}
    >
      <Typography.Paragraph type="secondary">{t('alerts.noteLogBook')}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="note" label={t('alerts.note')}>
          <Input.TextArea
            rows={4}
            maxLength={ALERT_LIMITS.note.max}
            showCount
            placeholder={t('alerts.notePlaceholder')}
            data-testid="alerts-note"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
