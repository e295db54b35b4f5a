import { Popconfirm, type PopconfirmProps } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * antd's Popconfirm for an action that deletes or undoes something: the OK button is red and says what it does
 * (`okText`: "Delete", "Revoke"), and Cancel sits beside it in the page language.
 */
export function DangerConfirm({ okButtonProps, cancelText, ...props }: PopconfirmProps & { okText: string }) {
  const { t } = useTranslation();
  return <Popconfirm {...props} cancelText={cancelText ?? t('common.cancel')} okButtonProps={{ danger: true, ...okButtonProps }} />;
}
