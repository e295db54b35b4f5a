import { App, Button, Form, Input, Segmented } from 'antd';
import { LockOutlined, MailOutlined, MobileOutlined, NumberOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract';
import { useBoot } from '../../app/boot.tsx';
import { useResetPassword } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { BLUR_VALIDATION, useBlurRules } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { checkCode, checkConfirmation, checkMail, checkNewPassword, checkPhone } from '../../components/validators.ts';
import { CaptchaField, useCaptchaField } from './captcha-field.tsx';
import { SendCodeButton } from './send-code-button.tsx';
import { useCompact } from './use-compact.ts';

interface ResetValues {
  mail?: string;
  phone?: string;
  captcha: string;
  code: string;
  password: string;
  confirm: string;
}

const LOGIN_ROUTE: Record<LoginMethod, string> = { mail: '/user/login', tel: '/user/tel-login' };
const TYPE_OF: Record<LoginMethod, string> = { mail: 'login', tel: 'tel-login' };

/** The forgot-password page, /user/forgetPwd?type=login (by e-mail) or ?type=tel-login (by phone). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { mode, branding } = useBoot();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const blurRules = useBlurRules();
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
  const targetField = method === 'mail' ? 'mail' : 'phone';

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
        {method === 'mail' ? (
          <Form.Item name="mail" rules={blurRules(checkMail)}>
            <Input
              prefix={<MailOutlined />}
              placeholder={t('register.mail')}
              aria-label={t('register.mail')}
              maxLength={LIMITS.mail.max}
              autoComplete="email"
            />
          </Form.Item>
        ) : (
          <Form.Item name="phone" rules={blurRules(checkPhone)}>
            <Input
              prefix={<MobileOutlined />}
              placeholder={t('register.phone')}
              aria-label={t('register.phone')}
              maxLength={16}
              autoComplete="tel"
              inputMode="tel"
            />
          </Form.Item>
        )}
        <CaptchaField state={captchaState} size={size} />
        <Form.Item required>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item name="code" noStyle rules={blurRules(checkCode)}>
              <Input
                prefix={<NumberOutlined />}
                placeholder={t('register.code')}
                aria-label={t('register.code')}
                maxLength={6}
                autoComplete="one-time-code"
                inputMode="numeric"
              />
            </Form.Item>
            <SendCodeButton form={form} targetField={targetField} purpose="reset" refreshCaptcha={captchaState.refresh} size={size} />
          </div>
        </Form.Item>
        <Form.Item name="password" rules={blurRules(checkNewPassword)} extra={compact ? undefined : t('validation.passwordRule')}>
          <PasswordInput
            prefix={<LockOutlined />}
            placeholder={t('forgot.newPassword')}
            aria-label={t('forgot.newPassword')}
            maxLength={LIMITS.password.max}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          dependencies={['password']}
          rules={blurRules((value) => checkConfirmation(form.getFieldValue('password') as string | undefined)(value))}
        >
          <PasswordInput
            prefix={<LockOutlined />}
            placeholder={t('forgot.confirm')}
            aria-label={t('forgot.confirm')}
            maxLength={LIMITS.password.max}
            autoComplete="new-password"
          />
        </Form.Item>
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
