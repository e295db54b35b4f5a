import { useState } from 'react';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { Button, Dropdown, Input, Space, Switch, Tabs, Tag, Typography, message } from 'antd';
import { useSearchParams } from 'react-router';
import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { USER_AUTH, canSeeAdministrators, type ManagedAccount } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { useProjectTree } from '../../features/projects/api.ts';
import { operateAuthKey } from '../../features/auth/role-label.ts';
import { useAccounts, useRemoveAccount, useResetAccountPassword, useUpdateAccount } from '../../features/users/api.ts';
import { AccountDetailDrawer } from './account-detail-drawer.tsx';
import { AccountFormModal } from './account-form-modal.tsx';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { IconButton } from '../../components/icon-button.tsx';
import { usePhone } from '../../components/use-phone.ts';
import { tablePaging } from '../../components/table-paging.ts';
import { DangerConfirm } from '../../components/danger-confirm.tsx';

const DEFAULT_PAGE_SIZE = 20;

/** One tab: the accounts of one kind the signed-in manager manages, with search, paging and every action. */
function AccountTable({ userAuth }: { userAuth: number }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const { time } = useAccountTime();
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, name: '' });
  const [editing, setEditing] = useState<{ account?: ManagedAccount } | undefined>();
  // ?uid=<id> opens an account's details (spec section 2: accountDetail and accountManagement with query uid).
  const [params, setParams] = useSearchParams();
  const uid = params.get('uid') ?? undefined;
  const accounts = useAccounts({ userAuth, ...query });
  const update = useUpdateAccount();
  const remove = useRemoveAccount();
  const reset = useResetAccountPassword();
  const isSub = userAuth === USER_AUTH.subAccount;
  const tree = useProjectTree(isSub ? '0' : undefined);
  const projectName = new Map((tree.data?.projects ?? []).map((p) => [p.id, p.name]));
  const roleText = (operateAuth: number) => {
    const key = operateAuthKey(operateAuth);
    return key ? t(key) : t('role.unknown', { value: operateAuth });
  };

  const resetPassword = async (row: ManagedAccount, channel: 'mail' | 'sms') => {
    await reset.mutateAsync({ id: row.id, channel });
    void message.success(t('accounts.passwordSent'));
  };

  const columns: ProColumns<ManagedAccount>[] = [
    {
      title: t('accounts.account'),
      dataIndex: 'account',
      width: 160,
      ellipsis: true,
      render: (_, row) => (
        <Typography.Link onClick={() => setParams({ uid: row.id })} data-testid="account-link">
          {row.account}
        </Typography.Link>
      ),
    },
    { title: t('accounts.name'), dataIndex: 'name', width: 140, ellipsis: true },
    ...(isSub
      ? [
          {
            title: t('accounts.authority'),
            dataIndex: 'operateAuth',
            width: 100,
            render: (_: unknown, row: ManagedAccount) => <Tag bordered={false}>{roleText(row.operateAuth)}</Tag>,
          },
          {
            title: t('accounts.projects'),
            dataIndex: 'projectIds',
            width: 150,
            ellipsis: true,
            render: (_: unknown, row: ManagedAccount) =>
              row.projectIds === null
                ? t('accounts.everyProject')
                : row.projectIds.length === 0
                  ? t('accounts.noProject')
                  : row.projectIds.map((id) => projectName.get(id) ?? id).join(', '),
          },
        ]
      : [{ title: t('accounts.company'), dataIndex: 'company', width: 130, ellipsis: true }]),
    // E-mail and phone in one column: two columns that are often half empty would push the table off the screen.
    {
      title: t('accounts.contact'),
      dataIndex: 'mail',
      width: 190,
      render: (_, row) =>
        row.mail || row.phone ? (
          <Space direction="vertical" size={0} style={{ maxWidth: 174 }}>
            {row.mail && <Typography.Text ellipsis={{ tooltip: row.mail }}>{row.mail}</Typography.Text>}
            {row.phone && <Typography.Text type="secondary">{row.phone}</Typography.Text>}
          </Space>
        ) : (
          '-'
        ),
    },
    {
      title: t('accounts.createdAt'),
      dataIndex: 'createdAt',
      width: 140,
      render: (_, row) => time(row.createdAt),
    },
    {
      title: t('accounts.enabled'),
      dataIndex: 'enabled',
      width: 80,
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          aria-label={t('accounts.enabled')}
          loading={update.isPending && update.variables?.id === row.id}
          onChange={(enabled) => void update.mutateAsync({ id: row.id, enabled }).catch(() => undefined)}
        />
      ),
    },
    {
      title: t('accounts.actions'),
      valueType: 'option',
      fixed: 'right',
      width: 120,
      render: (_, row) => (
        <Space size={4}>
          <IconButton label={t('accounts.edit')} size="small" icon={<EditOutlined />} onClick={() => setEditing({ account: row })} />
          <Dropdown
            menu={{
              items: [
                { key: 'mail', label: t('accounts.resetByMail'), disabled: !row.mail },
                { key: 'sms', label: t('accounts.resetBySms'), disabled: !row.phone },
              ],
              onClick: ({ key }) => void resetPassword(row, key as 'mail' | 'sms').catch(() => undefined),
            }}
          >
            <IconButton label={t('accounts.resetPassword')} size="small" icon={<KeyOutlined />} />
          </Dropdown>
          <DangerConfirm
            title={t('accounts.deleteConfirm', { account: row.account })}
            okText={t('accounts.delete')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <IconButton label={t('accounts.delete')} size="small" danger icon={<DeleteOutlined />} />
          </DangerConfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<ManagedAccount>
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={t(isSub ? 'accounts.emptySub' : 'accounts.empty')} /> }}
        columns={columns}
        dataSource={accounts.data?.list ?? []}
        loading={accounts.isFetching}
        search={false}
        cardBordered
        scroll={{ x: 1000 }}
        headerTitle={
          <Input.Search
            allowClear
            // A phone's box shows the short hint; the full one stays its name and tooltip.
            placeholder={phone ? t('accounts.searchShort') : t('accounts.search')}
            aria-label={t('accounts.search')}
            title={t('accounts.search')}
            style={{ width: 400 }}
            onSearch={(name) => setQuery({ ...query, page: 1, name: name.trim() })}
          />
        }
        toolBarRender={() => [
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
            {t(isSub ? 'accounts.addSub' : 'accounts.add')}
          </Button>,
        ]}
        options={{ reload: () => void accounts.refetch(), density: false, setting: false, fullScreen: false }}
        pagination={tablePaging(query, setQuery, accounts.data?.total ?? 0)}
      />
      {editing && (
        <AccountFormModal
          open
          userAuth={editing.account?.userAuth ?? userAuth}
          account={editing.account}
          onClose={() => setEditing(undefined)}
        />
      )}
      {uid && <AccountDetailDrawer id={uid} onEdit={(account) => setEditing({ account })} onClose={() => setParams({})} />}
    </>
  );
}

/**
 * /system/account (spec section 2): the platform administrator sees the administrator and ordinary account
 * tabs; an account owner manages its sub-accounts here.
 */
export default function AccountPage() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  if (!user) return null;
  const tabs =
    user.user_auth === USER_AUTH.subAccount || user.user_auth === USER_AUTH.account
      ? [{ key: 'sub', label: t('accounts.subAccounts'), children: <AccountTable userAuth={USER_AUTH.subAccount} /> }]
      : [
          ...(canSeeAdministrators(user)
            ? [{ key: 'admins', label: t('accounts.administrators'), children: <AccountTable userAuth={USER_AUTH.admin} /> }]
            : []),
          { key: 'accounts', label: t('accounts.ordinary'), children: <AccountTable userAuth={USER_AUTH.account} /> },
        ];
  return (
    <PageContainer title={t('accounts.title')} content={t('accounts.hint')}>
      <Tabs items={tabs} defaultActiveKey={tabs[tabs.length - 1]?.key} destroyOnHidden />
    </PageContainer>
  );
}
