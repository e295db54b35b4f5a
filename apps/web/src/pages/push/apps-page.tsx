import { useState } from 'react';
import { App, Button, Card, Col, Form, Input, List, Progress, Row, Space, Tag, Typography } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, PlusOutlined, TagsOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PUSH_LIMITS, type PushApp, type PushCategory } from '@lumigrid/contract/browser';
import { EmptyHint } from '../../components/empty-hint.tsx';
import {
  useAddPushCategory,
  useDeletePushApp,
  useDeletePushCategory,
  useEditPushCategory,
  usePushApps,
  usePushCategories,
} from '../../features/push/api.ts';
import './push.css';
import { FormModal } from '../../components/form-modal.tsx';
import { IconButton } from '../../components/icon-button.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/** The add/rename dialog of a category. */
function CategoryModal({ editing, onClose }: { editing: { category?: PushCategory } | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const add = useAddPushCategory();
  const rename = useEditPushCategory();
  const [form] = Form.useForm<{ name: string }>();
  const save = async () => {
    const { name } = await form.validateFields();
    const done = editing?.category ? rename.mutateAsync({ id: editing.category.id, name }) : add.mutateAsync(name);
    await done.then(() => {
      void message.success(t('push.category.saved'));
      onClose();
    });
  };
  return (
    <FormModal
      open={Boolean(editing)}
      title={t(editing?.category ? 'push.category.edit' : 'push.category.add')}
      okText={t('push.action.save')}
      confirmLoading={add.isPending || rename.isPending}
      onSubmit={save}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={{ name: editing?.category?.name ?? '' }} preserve={false}>
        <Form.Item
          name="name"
          label={t('push.category.name')}
          rules={[{ required: true, whitespace: true, message: t('push.category.nameRequired') }]}
        >
          <Input maxLength={PUSH_LIMITS.categoryName.max} showCount autoFocus data-testid="push-category-name" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function Categories() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyOnSuccess = useNotifyOnSuccess();
  const categories = usePushCategories();
  const remove = useDeletePushCategory();
  const [editing, setEditing] = useState<{ category?: PushCategory }>();
  const count = categories.data?.length ?? 0;
  const full = count >= PUSH_LIMITS.categories;
  return (
    <Card
      title={
        <Space>
          <TagsOutlined />
          {t('push.category.title')}
        </Space>
      }
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => (full ? void message.warning(t('push.category.full')) : setEditing({}))}
          data-testid="push-add-category"
        >
          {t('push.category.add')}
        </Button>
      }
      variant="borderless"
    >
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        <div>
          <Typography.Text type="secondary">{t('push.category.count', { count, max: PUSH_LIMITS.categories })}</Typography.Text>
          <Progress
            aria-label={t('push.category.count', { count, max: PUSH_LIMITS.categories })}
            percent={(count / PUSH_LIMITS.categories) * 100}
            showInfo={false}
            size="small"
            status={full ? 'exception' : 'normal'}
          />
        </div>
        <List
          loading={categories.isLoading}
          dataSource={categories.data ?? []}
          locale={{ emptyText: <EmptyHint text={t('push.category.empty')} /> }}
          renderItem={(c) => (
            <List.Item
              data-testid={`push-category-${c.name}`}
              actions={[
                <IconButton
                  label={t('push.action.edit')}
                  key="edit"
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ category: c })}
                />,
                <DangerConfirm
                  key="delete"
                  title={t('push.category.deleteConfirm', { name: c.name })}
                  okText={t('push.action.delete')}
                  onConfirm={() => notifyOnSuccess(remove.mutateAsync(c.id), t('push.category.deleted'))}
                >
                  <IconButton label={t('push.action.delete')} type="link" size="small" danger icon={<DeleteOutlined />} />
                </DangerConfirm>,
              ]}
            >
              <List.Item.Meta title={c.name} description={t('push.category.newsCount', { count: c.newsCount })} />
            </List.Item>
          )}
        />
      </Space>
      <CategoryModal editing={editing} onClose={() => setEditing(undefined)} />
    </Card>
  );
}

function Apps() {
  const { t } = useTranslation();
  const notifyOnSuccess = useNotifyOnSuccess();
  const navigate = useNavigate();
  const [page, setPage] = useState({ page: 1, pageSize: 10, name: undefined as string | undefined });
  const apps = usePushApps(page);
  const remove = useDeletePushApp();
  const columns: ProColumns<PushApp>[] = [
    {
      title: t('push.app.name'),
      dataIndex: 'name',
      render: (_, a) => (
        <Space>
          {a.icon ? (
            <img className="lg-push-app-icon" src={a.icon} alt="" />
          ) : (
            <span className="lg-push-app-icon lg-push-thumb--empty" style={{ background: '#f5f5f5' }}>
              <AppstoreOutlined />
            </span>
          )}
          <Typography.Text strong>{a.name}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('push.app.packageName'),
      dataIndex: 'packageName',
      render: (_, a) => <Typography.Text code>{a.packageName}</Typography.Text>,
    },
    { title: t('push.app.boundAccounts'), dataIndex: 'boundAccounts', width: 130, align: 'right' },
    {
      title: t('push.app.newsCount'),
      dataIndex: 'newsCount',
      width: 110,
      align: 'right',
      render: (_, a) => (a.newsCount ? <Tag bordered={false}>{a.newsCount}</Tag> : 0),
    },
    {
      title: t('push.action.title'),
      key: 'actions',
      width: 170,
      render: (_, a) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => void navigate(`/push/editApp?id=${a.id}`)}>
            {t('push.action.edit')}
          </Button>
          <DangerConfirm
            title={t('push.app.deleteConfirm', { name: a.name })}
            okText={t('push.action.delete')}
            onConfirm={() => notifyOnSuccess(remove.mutateAsync(a.id), t('push.app.deleted'))}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('push.action.delete')}
            </Button>
          </DangerConfirm>
        </Space>
      ),
    },
  ];
  return (
    <ProTable<PushApp>
      rowKey="id"
      columns={columns}
      {...queryTableRows(apps)}
      cardBordered
      search={false}
      headerTitle={
        <Space>
          <AppstoreOutlined />
          {t('push.app.title')}
          <Input.Search
            allowClear
            placeholder={t('push.app.search')}
            aria-label={t('push.app.search')}
            style={{ width: 260, marginInlineStart: 8 }}
            onSearch={(name) => setPage((p) => ({ ...p, page: 1, name: name || undefined }))}
          />
        </Space>
      }
      locale={{ emptyText: <EmptyHint text={t('push.app.empty')} /> }}
      pagination={{
        current: page.page,
        pageSize: page.pageSize,
        total: apps.data?.total ?? 0,
        onChange: (p, pageSize) => setPage((x) => ({ ...x, page: p, pageSize })),
      }}
      toolBarRender={() => [
        <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/push/addApp')} data-testid="push-add-app">
          {t('push.app.add')}
        </Button>,
      ]}
      options={{ reload: () => void apps.refetch(), density: false, setting: false, fullScreen: false }}
    />
  );
}

/** /push/child/index: the account's mobile apps and its news categories. */
export default function AppsPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t('push.app.pageTitle')} content={t('push.app.pageHint')}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Apps />
        </Col>
        <Col xs={24} xl={8}>
          <Categories />
        </Col>
      </Row>
    </PageContainer>
  );
}
