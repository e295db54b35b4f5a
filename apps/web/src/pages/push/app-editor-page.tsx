import { App, Button, Card, Form, Input, Result, Select, Skeleton, Space } from 'antd';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PACKAGE_NAME_PATTERN, PUSH_LIMITS, type PushApp, type PushAppAddBody } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { useAddPushApp, useBindableAccounts, useEditPushApp, usePushApp } from '../../features/push/api.ts';
import { PictureField, pictureFile } from './picture-field.tsx';
import './push.css';

type AppForm = Required<Pick<PushAppAddBody, 'name' | 'packageName'>> & { icon: string | null; accountIds: string[] };

const PACKAGE = new RegExp(PACKAGE_NAME_PATTERN);

function AppForm({ app }: { app?: PushApp }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const accounts = useBindableAccounts();
  const add = useAddPushApp();
  const edit = useEditPushApp();
  const [form] = Form.useForm<AppForm>();
  const options = [
    ...(me ? [{ value: me.id, label: t('push.app.self', { name: me.name || me.account }) }] : []),
    ...(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.account})` })),
  ];
  const save = async () => {
    const values = await form.validateFields();
    const body = { name: values.name, packageName: values.packageName.trim(), icon: values.icon, accountIds: values.accountIds };
    await (app ? edit.mutateAsync({ id: app.id, ...body }) : add.mutateAsync(body)).then(() => {
      void message.success(t('push.app.saved'));
      void navigate('/push/child/index');
    });
  };
  return (
    <Card variant="borderless">
      <Form<AppForm>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{
          name: app?.name ?? '',
          packageName: app?.packageName ?? '',
          icon: pictureFile(app?.icon),
          accountIds: app?.accountIds ?? [],
        }}
      >
        <Form.Item
          name="name"
          label={t('push.app.name')}
          rules={[{ required: true, whitespace: true, message: t('push.app.nameRequired') }]}
        >
          <Input maxLength={PUSH_LIMITS.appName.max} showCount data-testid="push-app-name" />
        </Form.Item>
        <Form.Item
          name="packageName"
          label={t('push.app.packageName')}
          extra={t('push.app.packageHint')}
          rules={[
            { required: true, message: t('push.app.packageRequired') },
            { pattern: PACKAGE, message: t('push.app.packageInvalid') },
          ]}
        >
          <Input maxLength={PUSH_LIMITS.packageName.max} placeholder="com.example.lighting" data-testid="push-app-package" />
        </Form.Item>
        <Form.Item name="icon" label={t('push.field.icon')}>
          <PictureField purpose="icon" testId="push-app-icon" />
        </Form.Item>
        <Form.Item name="accountIds" label={t('push.app.boundAccounts')} extra={t('push.app.boundHint')}>
          <Select
            mode="multiple"
            allowClear
            options={options}
            loading={accounts.isLoading}
            optionFilterProp="label"
            data-testid="push-app-accounts"
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button
              type="primary"
              loading={add.isPending || edit.isPending}
              onClick={() => void save().catch(() => undefined)}
              data-testid="push-app-save"
            >
              {t('push.action.save')}
            </Button>
            <Button onClick={() => void navigate('/push/child/index')}>{t('push.action.cancel')}</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** /push/addApp and /push/editApp?id=: an app's name, package name, icon and bound accounts. */
export default function AppEditorPage({ mode }: { mode: 'add' | 'edit' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = mode === 'edit' ? (params.get('id') ?? undefined) : undefined;
  const app = usePushApp(id);
  const title = t(mode === 'edit' ? 'menu.pushEditApp' : 'menu.pushAddApp');
  return (
    <PageContainer title={title}>
      {mode === 'edit' && !id ? (
        <Result status="404" title={t('push.app.missing')} />
      ) : mode === 'edit' && !app.data ? (
        app.isError ? (
          <Result status="404" title={t('push.app.missing')} />
        ) : (
          <Skeleton active />
        )
      ) : (
        <AppForm app={app.data} />
      )}
    </PageContainer>
  );
}
