import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeletePushNews, useSubmitPushNews, useWithdrawPushNews } from '../../features/push/api.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/** The author's actions on a news item, with their confirmations and success messages. */
export function useNewsActions() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const notifyOnSuccess = useNotifyOnSuccess();
  const submit = useSubmitPushNews();
  const withdraw = useWithdrawPushNews();
  const remove = useDeletePushNews();
  return {
    pending: submit.isPending || withdraw.isPending || remove.isPending,
    submit: (id: string) => notifyOnSuccess(submit.mutateAsync(id), t('push.news.submitted')),
    withdraw: (id: string, title: string) =>
      modal.confirm({
        title: t('push.news.withdrawConfirm', { title }),
        content: t('push.news.withdrawHint'),
        okText: t('push.action.withdraw'),
        cancelText: t('push.action.cancel'),
        onOk: () => notifyOnSuccess(withdraw.mutateAsync(id), t('push.news.withdrawn')),
      }),
    remove: (id: string, title: string, after?: () => void) =>
      modal.confirm({
        title: t('push.news.deleteConfirm', { title }),
        okText: t('push.action.delete'),
        okButtonProps: { danger: true },
        cancelText: t('push.action.cancel'),
        onOk: () =>
          remove
            .mutateAsync(id)
            .then(() => {
              void message.success(t('push.news.deleted'));
              after?.();
            })
            .catch(() => undefined),
      }),
  };
}
