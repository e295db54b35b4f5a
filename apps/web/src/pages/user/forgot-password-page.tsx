import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { toast } from '../../app/toast.ts';
import { useResetPassword } from '../../features/auth/api.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { LightButton, LightSegmented, type LightSize, lightSize } from '../../components/light-controls.tsx';
import { useLightForm } from '../../components/light-form.ts';
import { useLightCaptcha } from './light-captcha-field.tsx';
import { useCompact } from './use-compact.ts';
import { FORGOT_TYPE, LOGIN_ROUTE } from './user-routes.ts';
import {
  VERIFIED_CONTACT_DEPENDENTS,
  VERIFIED_CONTACT_INITIAL,
  VerifiedContactFields,
  verifiedContactRules,
} from './verified-contact-fields.tsx';

/** The forgot-password page, /user/forgetPwd?type=login (by e-mail) or ?type=tel-login (by phone). Drawn without antd. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { mode, branding } = useBoot();
  const [params, setParams] = useSearchParams();
  const compact = useCompact();
  const size = lightSize(compact);

  // Server mode has no mail or SMS for strangers; resetting there is the administrator's job, but a
  // local account with an address may still use it, so offer both.
  const methods: LoginMethod[] = mode === 'server' ? ['mail', 'tel'] : loginMethods(mode, branding.loginMode);
  const asked: LoginMethod = params.get('type') === 'tel-login' ? 'tel' : 'mail';
  const method = methods.includes(asked) ? asked : (methods[0] ?? 'mail');

  return (
    <>
      <h2 className="lg-user__title">{t('forgot.title')}</h2>
      {methods.length > 1 && (
        <LightSegmented<LoginMethod>
          name="reset-method"
          value={method}
          onChange={(next) => setParams({ type: FORGOT_TYPE[next] }, { replace: true })}
          options={[
            { value: 'mail', label: t('forgot.byMail') },
            { value: 'tel', label: t('forgot.byPhone') },
          ]}
        />
      )}
      <ResetForm key={method} method={method} size={size} compact={compact} />
      <div className="lg-user__switch">
        <Link to={LOGIN_ROUTE[method]}>{t('forgot.backToLogin')}</Link>
      </div>
    </>
  );
}

function ResetForm({ method, size, compact }: { method: LoginMethod; size: LightSize; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useLightForm({
    initial: VERIFIED_CONTACT_INITIAL,
    rules: (values) => verifiedContactRules(method, values),
    dependents: VERIFIED_CONTACT_DEPENDENTS,
  });
  const captcha = useLightCaptcha('reset', () => form.setValue('captcha', ''));

  const onValid = async (values: typeof form.values) => {
    const target = (method === 'mail' ? values.mail : values.phone).trim();
    const done = await reset
      .mutateAsync({ target, code: values.code, password: values.password })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    toast('success', t('forgot.success'));
    void navigate(LOGIN_ROUTE[method], { replace: true });
  };

  return (
    <form name={`reset-${method}`} noValidate onSubmit={form.handleSubmit(onValid)}>
      <VerifiedContactFields
        form={form}
        captcha={captcha}
        method={method}
        purpose="reset"
        size={size}
        compact={compact}
        passwordLabel={t('forgot.newPassword')}
        confirmLabel={t('forgot.confirm')}
      />
      <LightButton kind="primary" type="submit" size={size} block loading={reset.isPending}>
        {t('forgot.submit')}
      </LightButton>
    </form>
  );
}
