import { App, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALERT_LIMITS } from '@lumigrid/contract/browser';
import { useHandleAlerts } from '../../features/alerts/api.ts';
import { FormModal } from '../../components/form-modal.tsx';

/** Marks the chosen alerts handled with one note; open while `ids` is not empty. */
export function HandleAlertsModal({ ids, onClose }: { ids: string[]; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ note: string }>();
  const handle = useHandleAlerts();

  const submit = async () => {
    const { note } = await form.validateFields();
    const done = await handle.mutateAsync({ ids, note: note?.trim() ?? '' });
    void message.success(t('alerts.handledDone', { count: done.count }));
    onClose(true);
  };

  return (
    <FormModal
      open={ids.length > 0}
      title={t('alerts.handleTitle', { count: ids.length })}
      okText={t('alerts.markHandled')}
      confirmLoading={handle.isPending}
      onSubmit={submit}
      onCancel={() => onClose(false)}
      afterClose={() => form.resetFields()}
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
