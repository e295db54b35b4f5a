import { Button, Form, Input } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ssoDomainOf } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { loginRouteFor } from '../../api/session.ts';
import { useStartSso } from '../../features/sso/api.ts';
import { BLUR_VALIDATION } from '../../components/form-rules.ts';
import { rememberSsoRedirect } from './sso-redirect.ts';
import { lightSize } from '../../components/light-controls.tsx';
import { useCompact } from './use-compact.ts';

/**
 * Single sign-on (/user/sso): the user names the e-mail domain of their organisation (or types their
 * address), and the browser goes to the identity provider the account set up for it. `?domain=` fills it in.
 */
export default function SsoPage() {
  const { t } = useTranslation();
  const { mode } = useBoot();
  const [params] = useSearchParams();
  const start = useStartSso();
  const size = lightSize(useCompact());

  const onFinish = async ({ domain }: { domain: string }) => {
    const started = await start.mutateAsync(domain.trim()).catch(() => undefined);
    if (!started) return;
    rememberSsoRedirect(params.get('redirect'));
    window.location.assign(started.url);
  };

  return (
    <>
      <div className="lg-user__hint">{t('sso.hint')}</div>
      <Form<{ domain: string }>
        name="sso"
        size={size}
        onFinish={onFinish}
        initialValues={{ domain: params.get('domain') ?? '' }}
        validateTrigger={BLUR_VALIDATION}
        requiredMark={false}
      >
        <Form.Item
          name="domain"
          rules={[
            { required: true, message: t('sso.domainRequired') },
            {
              validator: (_, value: string) =>
                !value || ssoDomainOf(value) ? Promise.resolve() : Promise.reject(new Error(t('sso.domainInvalid'))),
            },
          ]}
        >
          <Input
            size={size}
            prefix={<KeyOutlined />}
            placeholder={t('sso.domain')}
            aria-label={t('sso.domain')}
            maxLength={320}
            autoComplete="email"
            data-testid="sso-domain"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button
            type="primary"
            htmlType="submit"
            size={size}
            block
            loading={start.isPending || start.isSuccess}
            data-testid="sso-continue"
          >
            {t('sso.continue')}
          </Button>
        </Form.Item>
      </Form>
      <div className="lg-user__switch">
        <Link to={loginRouteFor(mode)}>{t('sso.back')}</Link>
      </div>
    </>
  );
}
