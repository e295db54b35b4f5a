import { useEffect } from 'react';
import { Alert, App, Button, Card, Form, Input, Select, Skeleton, Switch, Typography } from 'antd';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import {
  OPERATE_AUTH,
  SSO_DEFAULT_AUTHORITIES,
  SSO_LIMITS,
  ssoDomainOf,
  type SsoSettings,
  type SsoSettingsBody,
} from '@lumigrid/contract/browser';
import { useSaveSsoSettings, useSsoSettings } from '../../features/sso/api.ts';

const AUTHORITY_LABEL = {
  [OPERATE_AUTH.editable]: 'role.editable',
  [OPERATE_AUTH.controllable]: 'role.controllable',
  [OPERATE_AUTH.viewOnly]: 'role.viewOnly',
} as const;

type SsoForm = Omit<SsoSettingsBody, 'clientSecret'> & { clientSecret?: string };

function formValues(settings: SsoSettings): SsoForm {
  const { enabled, issuer, clientId, claim, domain, defaultOperateAuth, localSignInOff } = settings;
  return { enabled, issuer, clientId, claim, domain, defaultOperateAuth, localSignInOff };
}

/**
 * Single sign-on (System > Single sign-on, account owners): the account's OpenID provider, the claim that names
 * its users, the authority new ones start with, and whether its sub-accounts may still sign in with a password.
 * The client secret is written, never read back.
 */
export default function SsoSettingsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useSsoSettings();
  const save = useSaveSsoSettings();
  const [form] = Form.useForm<SsoForm>();
  const data = settings.data;

  useEffect(() => {
    if (data) form.setFieldsValue(formValues(data));
  }, [data, form]);

  const onFinish = async (values: SsoForm) => {
    const { clientSecret, ...rest } = values;
    const secret = clientSecret?.trim();
    // Without a new secret the server keeps the one it has.
    const body: SsoSettingsBody = {
      ...rest,
      issuer: rest.issuer.trim(),
      clientId: rest.clientId.trim(),
      ...(secret ? { clientSecret: secret } : {}),
    };
    const saved = await save.mutateAsync(body).catch(() => undefined);
    if (!saved) return;
    form.setFieldsValue({ clientSecret: '' });
    void message.success(t('ssoSettings.saved'));
  };

  return (
    <PageContainer title={t('ssoSettings.title')}>
      <Card variant="borderless">
        <Typography.Paragraph type="secondary">{t('ssoSettings.hint')}</Typography.Paragraph>
        {!data ? (
          <Skeleton active />
        ) : (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 24 }}
              message={t('ssoSettings.redirectUri')}
              description={
                <Typography.Text copyable code data-testid="sso-redirect-uri">
                  {data.redirectUri}
                </Typography.Text>
              }
            />
            <Form<SsoForm>
              form={form}
              layout="vertical"
              name="sso-settings"
              onFinish={onFinish}
              style={{ maxWidth: 640 }}
              requiredMark={false}
            >
              <Form.Item name="enabled" label={t('ssoSettings.enabled')} valuePropName="checked">
                <Switch data-testid="sso-enabled" />
              </Form.Item>
              <Form.Item
                name="issuer"
                label={t('ssoSettings.issuer')}
                extra={t('ssoSettings.issuerHint')}
                rules={[{ required: true, type: 'url', message: t('ssoSettings.issuerRule') }]}
              >
                <Input maxLength={SSO_LIMITS.issuer.max} placeholder="https://login.example.com" data-testid="sso-issuer" />
              </Form.Item>
              <Form.Item
                name="clientId"
                label={t('ssoSettings.clientId')}
                rules={[{ required: true, whitespace: true, message: t('ssoSettings.clientIdRule') }]}
              >
                <Input maxLength={SSO_LIMITS.clientId.max} autoComplete="off" data-testid="sso-client-id" />
              </Form.Item>
              <Form.Item
                name="clientSecret"
                label={t('ssoSettings.clientSecret')}
                extra={data.clientSecretSet ? t('ssoSettings.secretKept') : undefined}
                rules={[{ required: !data.clientSecretSet, message: t('ssoSettings.secretRule') }]}
              >
                <Input.Password maxLength={SSO_LIMITS.clientSecret.max} autoComplete="new-password" data-testid="sso-client-secret" />
              </Form.Item>
              <Form.Item
                name="domain"
                label={t('ssoSettings.domain')}
                extra={t('ssoSettings.domainHint')}
                rules={[
                  { required: true, message: t('ssoSettings.domainRule') },
                  {
                    validator: (_, value: string) =>
                      !value || ssoDomainOf(value) ? Promise.resolve() : Promise.reject(new Error(t('ssoSettings.domainRule'))),
                  },
                ]}
              >
                <Input maxLength={SSO_LIMITS.domain.max} placeholder="example.com" data-testid="sso-domain-setting" />
              </Form.Item>
              <Form.Item
                name="claim"
                label={t('ssoSettings.claim')}
                extra={t('ssoSettings.claimHint')}
                rules={[{ required: true, pattern: /^[A-Za-z0-9_:.-]+$/, message: t('ssoSettings.claimRule') }]}
              >
                <Input maxLength={SSO_LIMITS.claim.max} data-testid="sso-claim" />
              </Form.Item>
              <Form.Item name="defaultOperateAuth" label={t('ssoSettings.defaultAuthority')} extra={t('ssoSettings.defaultAuthorityHint')}>
                <Select
                  data-testid="sso-authority"
                  options={SSO_DEFAULT_AUTHORITIES.map((value) => ({ value, label: t(AUTHORITY_LABEL[value]) }))}
                />
              </Form.Item>
              <Form.Item
                name="localSignInOff"
                label={t('ssoSettings.localSignInOff')}
                extra={t('ssoSettings.localSignInOffHint')}
                valuePropName="checked"
              >
                <Switch data-testid="sso-local-off" />
              </Form.Item>
              <Form.Item style={{ marginBottom: 0 }}>
                <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="sso-save">
                  {t('ssoSettings.save')}
                </Button>
              </Form.Item>
            </Form>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
