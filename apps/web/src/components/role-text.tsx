import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { describeRole, type RolePart } from '../features/auth/role-label.ts';

/** The user's role as two tags: platform role and authority inside the account. */
export function RoleText({ user }: { user: { user_auth: number; operate_auth: number } }) {
  const { t } = useTranslation();
  const role = describeRole(user);
  const text = (part: RolePart) => ('key' in part ? t(part.key) : t('role.unknown', { value: part.unknown }));
  return (
    <Space size={4} wrap>
      <Tag color="blue" bordered={false}>
        {text(role.user)}
      </Tag>
      <Tag bordered={false}>{text(role.operate)}</Tag>
    </Space>
  );
}
