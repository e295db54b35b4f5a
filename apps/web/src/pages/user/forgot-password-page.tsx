import { App, Button, Form, Segmented } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { useResetPassword } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { BLUR_VALIDATION } from '../../components/form-rules.ts';
import { useCaptchaField } from './captcha-field.tsx';
import { useCompact } from './use-compact.ts';
import { VerifiedContactFields, type VerifiedContactValues } from './verified-contact-fields.tsx';

type ResetValues = VerifiedContactValues;

const LOGIN_ROUTE: Record<LoginMethod, string> = { mail: '/user/login', tel: '/user/tel-login' };
const TYPE_OF: Record<LoginMethod, string> = { mail: 'login', tel: 'tel-login' };

/** The forgot-password page, /user/forgetPwd?type=login (by e-mail) or ?type=tel-login (by phone). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { mode, branding } = useBoot();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const compact = useCompact();
  const [form] = Form.useForm<ResetValues>();
  const captchaState = useCaptchaField(form, 'reset');
  const reset = useResetPassword();
  const size = compact ? 'middle' : 'large';

  // Server mode has no mail or SMS for strangers; resetting there is the administrator's job, but a
  // local account with an address may still use it, so offer both.
  const methods: LoginMethod[] = mode === 'server' ? ['mail', 'tel'] : loginMethods(mode, branding.loginMode);
  const asked: LoginMethod = params.get('type') === 'tel-login' ? 'tel' : 'mail';
  const method = methods.includes(asked) ? asked : (methods[0] ?? 'mail');

  const onFinish = async (values: ResetValues) => {
    const target = ((method === 'mail' ? values.mail : values.phone) ?? '').trim();
    const done = await reset
      .mutateAsync({ target, code: values.code, password: values.password })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    void message.success(t('forgot.success'));
    void navigate(LOGIN_ROUTE[method], { replace: true });
  };

  return (
    <>
      <h2 className="lg-user__title">{t('forgot.title')}</h2>
      {methods.length > 1 && (
        <Segmented<LoginMethod>
          block
          style={{ marginBottom: 20 }}
          value={method}
          onChange={(next) => setParams({ type: TYPE_OF[next] }, { replace: true })}
          options={[
            { value: 'mail', label: t('forgot.byMail') },
            { value: 'tel', label: t('forgot.byPhone') },
          ]}
        />
      )}
      <Form<ResetValues>
        key={method}
        form={form}
        name={`reset-${method}`}
        size={size}
        onFinish={onFinish}
        validateTrigger={BLUR_VALIDATION}
        requiredMark={false}
      >
        <VerifiedContactFields
          form={form}
          method={method}
          purpose="reset"
          captcha={captchaState}
          size={size}
          compact={compact}
          passwordLabel={t('forgot.newPassword')}
          confirmLabel={t('forgot.confirm')}
        />
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" block loading={reset.isPending}>
            {t('forgot.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="lg-user__switch">
        <Link to={LOGIN_ROUTE[method]}>{t('forgot.backToLogin')}</Link>
      </div>
    </>
  );
}
