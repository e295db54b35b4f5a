import BankOutlined from '@ant-design/icons-svg/es/asn/BankOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { useRegisterMail, useRegisterPhone } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { LightButton, LightField, LightInput, lightSize, type LightSize } from '../../components/light-controls.tsx';
import { useLightForm } from '../../components/light-form.ts';
import { checkWeightedMax } from '../../components/validators.ts';
import { useLightCaptcha } from './light-captcha-field.tsx';
import { MethodTabs } from './method-tabs.tsx';
import { useCompact } from './use-compact.ts';
import { LOGIN_ROUTE, SIGN_UP_ROUTE } from './user-routes.ts';
import {
  VERIFIED_CONTACT_DEPENDENTS,
  VERIFIED_CONTACT_INITIAL,
  VerifiedContactFields,
  verifiedContactRules,
} from './verified-contact-fields.tsx';

/** Sign-up by e-mail (/user/registered) or phone (/user/tel-registered); SaaS mode only. Drawn without antd. */
export default function RegisterPage({ method }: { method: LoginMethod }) {
  const { t } = useTranslation();
  const { mode, info, branding } = useBoot();
  const navigate = useNavigate();
  const compact = useCompact();
  const size = lightSize(compact);

  const methods = loginMethods(mode, branding.loginMode);
  if (mode === 'server' || info?.signUp === false) return <Navigate to={LOGIN_ROUTE[methods[0] ?? 'tel']} replace />;
  if (!methods.includes(method)) return <Navigate to={SIGN_UP_ROUTE[methods[0] ?? 'mail']} replace />;

  return (
    <>
      <MethodTabs methods={methods} active={method} onChange={(next) => void navigate(SIGN_UP_ROUTE[next])} />
      {methods.length < 2 && <h2 className="lg-user__title">{t('register.title')}</h2>}
      <RegisterForm key={method} method={method} size={size} compact={compact} />
      <div className="lg-user__switch">
        {t('register.haveAccount')} <Link to={LOGIN_ROUTE[method]}>{t('register.signIn')}</Link>
      </div>
    </>
  );
}

function RegisterForm({ method, size, compact }: { method: LoginMethod; size: LightSize; compact: boolean }) {
  const { t } = useTranslation();
  const { lang } = useBoot();
  const navigate = useNavigate();
  const registerMail = useRegisterMail();
  const registerPhone = useRegisterPhone();
  const form = useLightForm({
    initial: { ...VERIFIED_CONTACT_INITIAL, name: '', company: '' },
    rules: (values) => ({
      ...verifiedContactRules(method, values),
      name: { check: checkWeightedMax(LIMITS.personName.max), vars: { max: LIMITS.personName.max }, required: false },
      company: { check: checkWeightedMax(LIMITS.company.max), vars: { max: LIMITS.company.max }, required: false },
    }),
    dependents: VERIFIED_CONTACT_DEPENDENTS,
  });
  const captcha = useLightCaptcha('register', () => form.setValue('captcha', ''));
  const pending = registerMail.isPending || registerPhone.isPending;

  const onValid = async (values: typeof form.values) => {
    const common = {
      code: values.code,
      password: values.password,
      name: values.name.trim() || undefined,
      company: values.company.trim() || undefined,
      lang,
    };
    const result = await (
      method === 'mail'
        ? registerMail.mutateAsync({ ...common, mail: values.mail.trim() })
        : registerPhone.mutateAsync({ ...common, phone: values.phone.trim() })
    ).catch(() => undefined);
    if (!result) return;
    const query = new URLSearchParams({ type: method, account: result.account });
    void navigate(`/user/register-result?${query.toString()}`, { replace: true });
  };

  const name = form.field('name');
  const company = form.field('company');
  return (
    <form name={`register-${method}`} noValidate onSubmit={form.handleSubmit(onValid)}>
      <VerifiedContactFields
        form={form}
        captcha={captcha}
        method={method}
        purpose="register"
        size={size}
        compact={compact}
        passwordLabel={t('register.password')}
        confirmLabel={t('register.confirm')}
      />
      <LightField field={name}>
        <LightInput field={name} size={size} prefix={UserOutlined} label={t('register.name')} autoComplete="name" />
      </LightField>
      <LightField field={company}>
        <LightInput field={company} size={size} prefix={BankOutlined} label={t('register.company')} autoComplete="organization" />
      </LightField>
      <LightButton kind="primary" type="submit" size={size} block loading={pending}>
        {t('register.submit')}
      </LightButton>
    </form>
  );
}
