import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Typography, type ButtonProps } from 'antd';
import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import {
  API_KEY_LIMITS,
  API_KEY_SCOPES,
  mayGrantScope,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '@lumigrid/contract/browser';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../../features/api-keys/api.ts';
import { useMe } from '../../features/auth/api.ts';
import { useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { SecretFooter, SecretOnce } from '../../components/secret-once.tsx';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';

const DEFAULT_LIFETIME_DAYS = 90;
const SCOPE_COLOUR: Record<ApiKeyScope, string> = { read: 'blue', control: 'orange', edit: 'red' };

interface CreateForm {
  name: string;
  scope: ApiKeyScope;
  projectIds?: string[];
  expiresOn: Dayjs;
}

/** The last moment of the day chosen, never beyond the longest lifetime the server accepts. */
function expiryOf(day: Dayjs): string {
  const latest = dayjs().add(API_KEY_LIMITS.maxLifetimeDays, 'day').subtract(1, 'minute');
  const end = day.endOf('day');
  return (end.isAfter(latest) ? latest : end).toISOString();
}

function statusOf(key: ApiKey, now: number): 'revoked' | 'expired' | 'active' {
  if (key.revokedAt) return 'revoked';
  return Date.parse(key.expiresAt) <= now ? 'expired' : 'active';
}

/**
 * API keys (System > API keys): the keys integrators call the API with, who made them, what they may do and
 * when and from where they last called; a new key's secret is shown once, in the dialog that made it.
 */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const keys = useApiKeys();
  const me = useMe().data;
  const tree = useProjectTree(WHOLE_TREE);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [form] = Form.useForm<CreateForm>();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated>();
  const projectNames = new Map((tree.data?.projects ?? []).map((p) => [p.id, p.name]));
  const grantable = API_KEY_SCOPES.filter((s) => me && mayGrantScope({ userAuth: me.user_auth, operateAuth: me.operate_auth }, s));
  const now = Date.now();

  const close = () => {
    setOpen(false);
    // The secret leaves the page with the dialog: nothing keeps it.
    setCreated(undefined);
    form.resetFields();
  };

  const submit = async (values: CreateForm) => {
    const answer = await create.mutateAsync({
      name: values.name.trim(),
      scope: values.scope,
      projectIds: values.projectIds?.length ? values.projectIds : null,
      expiresAt: expiryOf(values.expiresOn),
    });
    setCreated(answer);
  };

  const columns: ProColumns<ApiKey>[] = [
    {
      title: t('apiKeys.name'),
      dataIndex: 'name',
      render: (_, k) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`api-key-name-${k.id}`}>{k.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
            {k.prefix}…
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('apiKeys.scope'),
      dataIndex: 'scope',
      width: 110,
      render: (_, k) => <Tag color={SCOPE_COLOUR[k.scope]}>{t(`apiKeys.scopes.${k.scope}`)}</Tag>,
    },
    {
      title: t('apiKeys.projects'),
      dataIndex: 'projectIds',
      width: 180,
      render: (_, k) => (k.projectIds ? k.projectIds.map((id) => projectNames.get(id) ?? id).join(', ') : t('apiKeys.allProjects')),
    },
    { title: t('apiKeys.expires'), dataIndex: 'expiresAt', width: 170, render: (_, k) => time(k.expiresAt) },
    {
      title: t('apiKeys.lastUsed'),
      dataIndex: 'lastUsedAt',
      width: 190,
      render: (_, k) =>
        k.lastUsedAt ? (
          <Space direction="vertical" size={0} data-testid={`api-key-last-used-${k.id}`}>
            <span>{time(k.lastUsedAt, 'second')}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {k.lastUsedIp}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary" data-testid={`api-key-last-used-${k.id}`}>
            {t('apiKeys.never')}
          </Typography.Text>
        ),
    },
    {
      title: t('apiKeys.created'),
      dataIndex: 'createdAt',
      width: 190,
      render: (_, k) => <WithSecondLine first={time(k.createdAt)} second={k.userName} />,
    },
    {
      title: t('apiKeys.status'),
      dataIndex: 'revokedAt',
      width: 110,
      render: (_, k) => {
        const status = statusOf(k, now);
        const colour = status === 'active' ? 'green' : status === 'revoked' ? 'red' : 'default';
        return (
          <Tag color={colour} data-testid={`api-key-status-${k.id}`}>
            {t(`apiKeys.statuses.${status}`)}
          </Tag>
        );
      },
    },
    {
      title: t('apiKeys.actions'),
      valueType: 'option',
      width: 100,
      render: (_, k) =>
        k.revokedAt ? null : (
          <DangerConfirm
            key="revoke"
            title={t('apiKeys.revokeConfirm', { name: k.name })}
            okText={t('apiKeys.revoke')}
            okButtonProps={{ 'data-testid': 'api-key-revoke-ok' } as ButtonProps}
            onConfirm={() => revoke.mutateAsync(k.id)}
          >
            <Button type="link" danger size="small" data-testid={`api-key-revoke-${k.id}`}>
              {t('apiKeys.revoke')}
            </Button>
          </DangerConfirm>
        ),
    },
  ];

  return (
    <PageContainer title={t('apiKeys.title')} content={t('apiKeys.hint')}>
      <ProTable<ApiKey>
        rowKey="id"
        size="middle"
        columns={columns}
        {...queryTableRows(keys)}
        search={false}
        pagination={false}
        cardBordered
        locale={{ emptyText: <EmptyHint text={t('apiKeys.empty')} /> }}
        onRow={(k) => ({ 'data-testid': `api-key-row-${k.id}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() => [
          <Button key="create" type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="api-key-create">
            {t('apiKeys.create')}
          </Button>,
        ]}
        options={{ reload: () => void keys.refetch(), density: true, setting: true, fullScreen: false }}
      />
      <FormModal
        open={open}
        title={created ? t('apiKeys.createdTitle') : t('apiKeys.create')}
        onCancel={close}
        // Enter in a field creates the key; once its secret is shown there is nothing to send.
        onOk={created ? undefined : () => form.submit()}
        confirmLoading={create.isPending}
        footer={
          <SecretFooter
            screen="apiKeys"
            testid="api-key"
            shown={created !== undefined}
            onClose={close}
            onSend={() => form.submit()}
            sending={create.isPending}
            sendText={t('apiKeys.create')}
          />
        }
      >
        {created ? (
          <SecretOnce screen="apiKeys" testid="api-key" secret={created.secret}>
            <Typography.Text type="secondary">{t('apiKeys.useWith')}</Typography.Text>
            <Typography.Text code>Authorization: Bearer lg_…</Typography.Text>
          </SecretOnce>
        ) : (
          <Form<CreateForm>
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{ scope: 'read', expiresOn: dayjs().add(DEFAULT_LIFETIME_DAYS, 'day') }}
          >
            <Form.Item
              name="name"
              label={t('apiKeys.name')}
              rules={[{ required: true, whitespace: true, max: API_KEY_LIMITS.name.max, message: t('apiKeys.nameRule') }]}
            >
              <Input prefix={<KeyOutlined />} maxLength={API_KEY_LIMITS.name.max} data-testid="api-key-name" />
            </Form.Item>
            <Form.Item name="scope" label={t('apiKeys.scope')} extra={t('apiKeys.scopeHint')} rules={[{ required: true }]}>
              <Select
                data-testid="api-key-scope"
                options={grantable.map((s) => ({ value: s, label: `${t(`apiKeys.scopes.${s}`)} — ${t(`apiKeys.scopeText.${s}`)}` }))}
              />
            </Form.Item>
            <Form.Item name="projectIds" label={t('apiKeys.projects')} extra={t('apiKeys.projectsHint')}>
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                maxCount={API_KEY_LIMITS.projects}
                placeholder={t('apiKeys.allProjects')}
                options={(tree.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
            <Form.Item name="expiresOn" label={t('apiKeys.expires')} rules={[{ required: true, message: t('apiKeys.expiresRule') }]}>
              <DatePicker
                allowClear={false}
                style={{ width: '100%' }}
                disabledDate={(d) => d.isBefore(dayjs(), 'day') || d.isAfter(dayjs().add(API_KEY_LIMITS.maxLifetimeDays, 'day'), 'day')}
              />
            </Form.Item>
          </Form>
        )}
      </FormModal>
    </PageContainer>
  );
}
