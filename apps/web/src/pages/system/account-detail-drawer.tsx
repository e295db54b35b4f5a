import { Avatar, Button, Descriptions, Drawer, Image, Space, Tag, Typography } from 'antd';
import { EditOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { USER_AUTH, maskPhone, type ManagedAccount } from '@lumigrid/contract/browser';
import { operateAuthKey } from '../../features/auth/role-label.ts';
import { useProjectTree } from '../../features/projects/api.ts';
import { useAccountDetail } from '../../features/users/api.ts';
import { useAccountTime } from '../../features/projects/site-time.ts';

/** Every field of an account (spec section 3), opened from the list or by /system/account?uid=<id>. */
export function AccountDetailDrawer({ id, onEdit, onClose }: { id: string; onEdit(account: ManagedAccount): void; onClose(): void }) {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const { data: account, isError } = useAccountDetail(id);
  const isSub = account?.userAuth === USER_AUTH.subAccount;
  const tree = useProjectTree(isSub ? '0' : undefined);
  const empty = t('common.empty');
  const text = (value: string | null | undefined) => value || empty;
  const projectName = new Map((tree.data?.projects ?? []).map((p) => [p.id, p.name]));
  const picture = (url: string | null, label: string) =>
    url ? <Image src={url} alt={label} width={72} height={72} style={{ objectFit: 'contain' }} /> : empty;
  const authority = account && operateAuthKey(account.operateAuth);

  return (
    <Drawer
      open
      width={520}
      title={t('accounts.detail')}
      onClose={onClose}
      extra={
        account && (
          <Button icon={<EditOutlined />} onClick={() => onEdit(account)}>
            {t('accounts.edit')}
          </Button>
        )
      }
    >
      {isError && <Typography.Text type="danger">{t('accounts.notFound')}</Typography.Text>}
      {account && (
        <>
          <Space size={16} align="center" style={{ marginBottom: 24 }}>
            <Avatar size={56} src={account.avatar || undefined} icon={<UserOutlined />} />
            <div>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {account.name || account.account}
              </Typography.Title>
              <Tag color={account.enabled ? 'green' : 'default'} bordered={false}>
                {t(account.enabled ? 'accounts.on' : 'accounts.off')}
              </Tag>
            </div>
          </Space>
          <Descriptions column={1} size="small" labelStyle={{ width: 150 }} data-testid="account-detail">
            <Descriptions.Item label={t('accounts.account')}>{account.account}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.name')}>{text(account.name)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.company')}>{text(account.company)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.companyCode')}>{text(account.companyCode)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.country')}>{text(account.country)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.mail')}>{text(account.mail)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.phone')}>{text(maskPhone(account.phone))}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.address')}>{text(account.address)}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.remarks')}>{text(account.remarks)}</Descriptions.Item>
            {isSub && <Descriptions.Item label={t('accounts.authority')}>{authority ? t(authority) : empty}</Descriptions.Item>}
            {isSub && (
              <Descriptions.Item label={t('accounts.projects')}>
                {account.projectIds === null
                  ? t('accounts.everyProject')
                  : account.projectIds.map((p) => projectName.get(p) ?? p).join(', ') || t('accounts.noProject')}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('accounts.createdAt')}>{time(account.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('center.logo')}>{picture(account.logo, t('center.logo'))}</Descriptions.Item>
            <Descriptions.Item label={t('center.background')}>{picture(account.loginBackground, t('center.background'))}</Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Drawer>
  );
}
