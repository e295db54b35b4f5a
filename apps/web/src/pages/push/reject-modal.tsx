import { App, Form, Input, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { PUSH_LIMITS } from '@lumigrid/contract/browser';
import { useRejectPushNews } from '../../features/push/api.ts';
import { FormModal } from '../../components/form-modal.tsx';

/** The reviewer's rejection: a reason the author reads on the news item. */
export function RejectModal({
  news,
  onClose,
  onDone,
}: {
  news: { id: string; title: string } | undefined;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reject = useRejectPushNews();
  const [form] = Form.useForm<{ reason: string }>();
  const save = async () => {
    const { reason } = await form.validateFields();
    await reject.mutateAsync({ id: news!.id, reason: reason.trim() });
    void message.success(t('push.review.rejected'));
    onClose();
    onDone?.();
  };
  return (
    <FormModal
      open={Boolean(news)}
      title={t('push.review.rejectTitle', { title: news?.title ?? '' })}
      okText={t('push.action.reject')}
      okButtonProps={{ danger: true, 'data-testid': 'push-reject-ok' } as ButtonProps}
      confirmLoading={reject.isPending}
      onSubmit={save}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('push.review.reason')}
          rules={[{ required: true, whitespace: true, message: t('push.review.reasonRequired') }]}
        >
          <Input.TextArea rows={4} maxLength={PUSH_LIMITS.reason.max} showCount autoFocus data-testid="push-reject-reason" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
