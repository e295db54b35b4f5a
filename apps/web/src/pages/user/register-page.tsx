import { Button, Form, Input } from 'antd';
import { BankOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { useRegisterMail, useRegisterPhone } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { BLUR_VALIDATION, useBlurRules } from '../../components/form-rules.ts';
import { checkWeightedMax } from '../../components/validators.ts';
import { useCaptchaField } from './captcha-field.tsx';
import { MethodTabs } from './method-tabs.tsx';
import { useCompact } from './use-compact.ts';
import { VerifiedContactFields, type VerifiedContactValues } from './verified-contact-fields.tsx';

interface RegisterValues extends VerifiedContactValues {
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
        <VerifiedContactFields
          form={form}
          method={method}
          purpose="register"
          captcha={captchaState}
          size={size}
          compact={compact}
          passwordLabel={t('register.password')}
          confirmLabel={t('register.confirm')}
        />
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
