import { useState } from 'react';
import { Button, Checkbox, Drawer, Form, Input, Space, Switch, Table, Tag, Typography, type ButtonProps } from 'antd';
import { ApiOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENT_KINDS,
  WEBHOOK_LIMITS,
  type WebhookDelivery,
  type WebhookDeliveryKind,
  type WebhookDeliveryState,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEventKind,
} from '@lumigrid/contract/browser';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useTestWebhook,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../../features/webhooks/api.ts';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { SecretFooter, SecretOnce } from '../../components/secret-once.tsx';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';

interface EndpointForm {
  name: string;
  url: string;
  kinds: WebhookEventKind[];
  enabled: boolean;
}

const STATE_COLOUR: Record<WebhookDeliveryState, string> = { pending: 'orange', succeeded: 'green', failed: 'red' };

/** Each kind's label in the catalogue, whose keys cannot hold the kinds' dots. */
const KIND_LABEL = {
  'alarm.raised': 'webhooks.kinds.alarm_raised',
  'alarm.cleared': 'webhooks.kinds.alarm_cleared',
  'alarm.acknowledged': 'webhooks.kinds.alarm_acknowledged',
  'device.stateChanged': 'webhooks.kinds.device_stateChanged',
  'gateway.online': 'webhooks.kinds.gateway_online',
  'gateway.offline': 'webhooks.kinds.gateway_offline',
  'scene.ran': 'webhooks.kinds.scene_ran',
  'emergency.testFinished': 'webhooks.kinds.emergency_testFinished',
  'energy.dayClosed': 'webhooks.kinds.energy_dayClosed',
  'webhook.test': 'webhooks.kinds.webhook_test',
} as const satisfies Record<WebhookDeliveryKind, string>;
const kindKey = (kind: WebhookDeliveryKind) => KIND_LABEL[kind];

/** The deliveries of one endpoint, newest first, with what the receiver answered. */
function DeliveriesDrawer(props: { endpoint: WebhookEndpoint | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const deliveries = useWebhookDeliveries(props.endpoint?.id);
  return (
    <Drawer
      open={props.endpoint !== undefined}
      onClose={props.onClose}
      width={920}
      title={t('webhooks.deliveriesOf', { name: props.endpoint?.name ?? '' })}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void deliveries.refetch()} data-testid="webhook-deliveries-reload">
          {t('webhooks.reload')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('webhooks.deliveriesHint', { count: WEBHOOK_LIMITS.deliveriesKept })}</Typography.Paragraph>
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        loading={deliveries.isFetching && !deliveries.data}
        dataSource={deliveries.data ?? []}
        pagination={false}
        locale={{ emptyText: <EmptyHint text={t('webhooks.noDeliveries')} /> }}
        onRow={(d) => ({ 'data-testid': `webhook-delivery-${d.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('webhooks.at'), dataIndex: 'createdAt', width: 170, render: (_, d) => time(d.createdAt, 'second') },
          {
            title: t('webhooks.event'),
            dataIndex: 'kind',
            render: (_, d) => (
              <Space direction="vertical" size={0}>
                <span>{t(kindKey(d.kind))}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: d.eventId }}>
                  {d.eventId}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('webhooks.state'),
            dataIndex: 'state',
            width: 110,
            render: (_, d) => <Tag color={STATE_COLOUR[d.state]}>{t(`webhooks.states.${d.state}`)}</Tag>,
          },
          { title: t('webhooks.attempts'), dataIndex: 'attempts', width: 80 },
          {
            title: t('webhooks.answer'),
            dataIndex: 'answerCode',
            render: (_, d) => (
              <Space direction="vertical" size={0}>
                <span>{d.answerCode ?? '—'}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: d.answerExcerpt }}>
                  {d.answerExcerpt}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('webhooks.nextAttempt'),
            dataIndex: 'nextAttemptAt',
            width: 170,
            render: (_, d) => (d.nextAttemptAt ? time(d.nextAttemptAt, 'second') : '—'),
          },
        ]}
      />
    </Drawer>
  );
}

/**
 * Webhooks (System > Webhooks): the addresses told of the account's events, each delivery signed with the
 * endpoint's secret (shown once, when it is registered), its recent deliveries and a test event.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const endpoints = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [form] = Form.useForm<EndpointForm>();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new'>();
  const [created, setCreated] = useState<WebhookEndpointCreated>();
  const [watched, setWatched] = useState<WebhookEndpoint>();

  const close = () => {
    setEditing(undefined);
    // The secret leaves the page with the dialog: nothing keeps it.
    setCreated(undefined);
    form.resetFields();
  };

  const open = (endpoint: WebhookEndpoint | 'new') => {
    setEditing(endpoint);
    form.setFieldsValue(
      endpoint === 'new'
        ? { name: '', url: 'https://', kinds: [...WEBHOOK_EVENT_KINDS], enabled: true }
        : { name: endpoint.name, url: endpoint.url, kinds: endpoint.kinds, enabled: endpoint.enabled },
    );
  };

  const submit = async (values: EndpointForm) => {
    const body = { name: values.name.trim(), url: values.url.trim(), kinds: values.kinds };
    if (editing === 'new') setCreated(await create.mutateAsync(body));
    else if (editing) {
      await update.mutateAsync({ ...body, id: editing.id, enabled: values.enabled });
      close();
    }
  };

  const columns: ProColumns<WebhookEndpoint>[] = [
    {
      title: t('webhooks.name'),
      dataIndex: 'name',
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`webhook-name-${e.id}`}>{e.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
            {e.keyId}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('webhooks.url'), dataIndex: 'url', ellipsis: true },
    {
      title: t('webhooks.kindsTitle'),
      dataIndex: 'kinds',
      render: (_, e) =>
        e.kinds.length === WEBHOOK_EVENT_KINDS.length ? (
          <Tag>{t('webhooks.allKinds')}</Tag>
        ) : (
          e.kinds.map((kind) => <Tag key={kind}>{t(kindKey(kind))}</Tag>)
        ),
    },
    {
      title: t('webhooks.status'),
      dataIndex: 'enabled',
      width: 100,
      render: (_, e) => (
        <Tag color={e.enabled ? 'green' : 'default'} data-testid={`webhook-status-${e.id}`}>
          {e.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
        </Tag>
      ),
    },
    {
      title: t('webhooks.created'),
      dataIndex: 'createdAt',
      width: 190,
      render: (_, e) => <WithSecondLine first={time(e.createdAt)} second={e.userName} />,
    },
    {
      title: t('webhooks.actions'),
      valueType: 'option',
      width: 320,
      render: (_, e) => [
        <Button key="deliveries" type="link" size="small" onClick={() => setWatched(e)} data-testid={`webhook-deliveries-${e.id}`}>
          {t('webhooks.deliveries')}
        </Button>,
        <Button
          key="test"
          type="link"
          size="small"
          disabled={!e.enabled}
          loading={test.isPending && test.variables === e.id}
          onClick={() => void test.mutateAsync(e.id).then(() => setWatched(e))}
          data-testid={`webhook-test-${e.id}`}
        >
          {t('webhooks.sendTest')}
        </Button>,
        <Button key="edit" type="link" size="small" onClick={() => open(e)} data-testid={`webhook-edit-${e.id}`}>
          {t('webhooks.edit')}
        </Button>,
        <DangerConfirm
          key="delete"
          title={t('webhooks.deleteConfirm', { name: e.name })}
          okText={t('webhooks.delete')}
          okButtonProps={{ 'data-testid': 'webhook-delete-ok' } as ButtonProps}
          onConfirm={() => remove.mutateAsync(e.id)}
        >
          <Button type="link" danger size="small" data-testid={`webhook-delete-${e.id}`}>
            {t('webhooks.delete')}
          </Button>
        </DangerConfirm>,
      ],
    },
  ];

  return (
    <PageContainer title={t('webhooks.title')} content={t('webhooks.hint')}>
      <ProTable<WebhookEndpoint>
        rowKey="id"
        size="middle"
        columns={columns}
        {...queryTableRows(endpoints)}
        search={false}
        pagination={false}
        cardBordered
        locale={{ emptyText: <EmptyHint text={t('webhooks.empty')} /> }}
        onRow={(e) => ({ 'data-testid': `webhook-row-${e.id}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() => [
          <Button key="create" type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="webhook-create">
            {t('webhooks.create')}
          </Button>,
        ]}
        options={{ reload: () => void endpoints.refetch(), density: true, setting: true, fullScreen: false }}
      />
      <DeliveriesDrawer endpoint={watched} onClose={() => setWatched(undefined)} />
      <FormModal
        open={editing !== undefined}
        title={created ? t('webhooks.createdTitle') : editing === 'new' ? t('webhooks.create') : t('webhooks.edit')}
        onCancel={close}
        // Enter in a field saves the endpoint; once its secret is shown there is nothing to send.
        onOk={created ? undefined : () => form.submit()}
        confirmLoading={create.isPending || update.isPending}
        forceRender
        destroyOnHidden={false}
        footer={
          <SecretFooter
            screen="webhooks"
            testid="webhook"
            shown={created !== undefined}
            onClose={close}
            onSend={() => form.submit()}
            sending={create.isPending || update.isPending}
            sendText={editing === 'new' ? t('webhooks.create') : t('webhooks.save')}
          />
        }
      >
        {created && (
          <SecretOnce screen="webhooks" testid="webhook" secret={created.secret}>
            <Typography.Text type="secondary">{t('webhooks.verifyWith', { keyId: created.keyId })}</Typography.Text>
          </SecretOnce>
        )}
        <Form<EndpointForm> form={form} layout="vertical" onFinish={submit} hidden={created !== undefined}>
          <Form.Item
            name="name"
            label={t('webhooks.name')}
            rules={[{ required: true, whitespace: true, max: WEBHOOK_LIMITS.name.max, message: t('webhooks.nameRule') }]}
          >
            <Input prefix={<ApiOutlined />} maxLength={WEBHOOK_LIMITS.name.max} data-testid="webhook-name" />
          </Form.Item>
          <Form.Item
            name="url"
            label={t('webhooks.url')}
            extra={t('webhooks.urlHint')}
            rules={[{ required: true, type: 'url', max: WEBHOOK_LIMITS.url.max, message: t('webhooks.urlRule') }]}
          >
            <Input maxLength={WEBHOOK_LIMITS.url.max} data-testid="webhook-url" />
          </Form.Item>
          <Form.Item
            name="kinds"
            label={t('webhooks.kindsTitle')}
            rules={[{ required: true, type: 'array', min: 1, message: t('webhooks.kindsRule') }]}
          >
            <Checkbox.Group
              data-testid="webhook-kinds"
              style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 4 }}
              options={WEBHOOK_EVENT_KINDS.map((kind) => ({ value: kind, label: t(kindKey(kind)) }))}
            />
          </Form.Item>
          {editing !== 'new' && (
            <Form.Item name="enabled" label={t('webhooks.status')} valuePropName="checked">
              <Switch checkedChildren={t('webhooks.enabled')} unCheckedChildren={t('webhooks.disabled')} data-testid="webhook-enabled" />
            </Form.Item>
          )}
        </Form>
      </FormModal>
    </PageContainer>
  );
}
