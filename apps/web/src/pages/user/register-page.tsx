import { Button, Form, Input } from 'antd';
import { BankOutlined, LockOutlined, MailOutlined, MobileOutlined, NumberOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract';
import { useBoot } from '../../app/boot.tsx';
import { useRegisterMail, useRegisterPhone } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { BLUR_VALIDATION, useBlurRules } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { checkCode, checkConfirmation, checkMail, checkNewPassword, checkPhone, checkWeightedMax } from '../../components/validators.ts';
import { CaptchaField, useCaptchaField } from './captcha-field.tsx';
import { MethodTabs } from './method-tabs.tsx';
import { SendCodeButton } from './send-code-button.tsx';
import { useCompact } from './use-compact.ts';

interface RegisterValues {
  mail?: string;
  phone?: string;
  captcha: string;
  code: string;
  password: string;
  confirm: string;
  name?: string;
  company?: string;
}

const REGISTER_ROUTE: Record<LoginMethod, string> = { mail: '/user/registered', tel: '/user/tel-registered' };
const LOGIN_ROUTE: Record<LoginMethod, string> = { mail: '/user/login', tel: '/user/tel-login' };

/** Sign-up by e-mail (/user/registered) or phone (/user/tel-registered); SaaS mode only. */
export default function RegisterPage({ method }: { method: LoginMethod }) {
  const { t } = useTranslation();
  const { mode, info, branding, lang } = useBoot();
  const navigate = useNavigate();
  const blurRules = useBlurRules();
  const compact = useCompact();
  const [form] = Form.useForm<RegisterValues>();
  const captchaState = useCaptchaField(form, 'register');
  const registerMail = useRegisterMail();
  const registerPhone = useRegisterPhone();
  const size = compact ? 'middle' : 'large';

  const methods = loginMethods(mode, branding.loginMode);
  if (mode === 'server' || info?.signUp === false) return <Navigate to={LOGIN_ROUTE[methods[0] ?? 'tel']} replace />;
  if (!methods.includes(method)) return <Navigate to={REGISTER_ROUTE[methods[0] ?? 'mail']} replace />;

  const targetField = method === 'mail' ? 'mail' : 'phone';
  const pending = registerMail.isPending || registerPhone.isPending;

  const onFinish = async (values: RegisterValues) => {
    const common = {
      code: values.code,
      password: values.password,
      name: values.name?.trim() || undefined,
      company: values.company?.trim() || undefined,
      lang,
    };
    const result = await (
      method === 'mail'
        ? registerMail.mutateAsync({ ...common, mail: (values.mail ?? '').trim() })
        : registerPhone.mutateAsync({ ...common, phone: (values.phone ?? '').trim() })
    ).catch(() => undefined);
    if (!result) return;
    const query = new URLSearchParams({ type: method, account: result.account });
    void navigate(`/user/register-result?${query.toString()}`, { replace: true });
  };

  return (
    <>
      <MethodTabs methods={methods} active={method} onChange={(next) => void navigate(REGISTER_ROUTE[next])} />
      {methods.length < 2 && <h2 className="lg-user__title">{t('register.title')}</h2>}
      <Form<RegisterValues>
        key={method}
        form={form}
        name={`register-${method}`}
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
            <SendCodeButton form={form} targetField={targetField} purpose="register" refreshCaptcha={captchaState.refresh} size={size} />
          </div>
        </Form.Item>
        <Form.Item name="password" rules={blurRules(checkNewPassword)} extra={compact ? undefined : t('validation.passwordRule')}>
          <PasswordInput
            prefix={<LockOutlined />}
            placeholder={t('register.password')}
            aria-label={t('register.password')}
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
            placeholder={t('register.confirm')}
            aria-label={t('register.confirm')}
            maxLength={LIMITS.password.max}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item name="name" rules={blurRules(checkWeightedMax(LIMITS.personName.max), { max: LIMITS.personName.max }, false)}>
          <Input prefix={<UserOutlined />} placeholder={t('register.name')} aria-label={t('register.name')} autoComplete="name" />
        </Form.Item>
        <Form.Item name="company" rules={blurRules(checkWeightedMax(LIMITS.company.max), { max: LIMITS.company.max }, false)}>
          <Input
            prefix={<BankOutlined />}
            placeholder={t('register.company')}
            aria-label={t('register.company')}
            autoComplete="organization"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="lg-user__switch">
        {t('register.haveAccount')} <Link to={LOGIN_ROUTE[method]}>{t('register.signIn')}</Link>
      </div>
    </>
  );
}
