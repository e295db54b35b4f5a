import { useState } from 'react';
import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { session } from '../../api/session.ts';
import { useLogin } from '../../features/auth/api.ts';
import { useSignedIn } from './use-signed-in.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { LightButton, LightCheckbox, LightField, LightInput, lightSize, type LightSize } from '../../components/light-controls.tsx';
import { useLightForm } from '../../components/light-form.ts';
import { checkAccount, checkCaptcha, checkLoginPassword, checkLoginMail, checkPhone } from '../../components/validators.ts';
import { ApiError } from '../../api/client.ts';
import { LightCaptchaField, useLightCaptcha } from './light-captcha-field.tsx';
import { MethodTabs } from './method-tabs.tsx';
import { useCompact } from './use-compact.ts';
import { ContactInput } from './contact-input.tsx';
import { FORGOT_TYPE, LOGIN_ROUTE, SIGN_UP_ROUTE } from './user-routes.ts';

/** The answers after which the sign-in shows the picture code: too many failures for the account, or a wrong code. */
const CAPTCHA_ASKED = new Set([100021, 240101]);

/**
 * Sign-in by e-mail (/user/login) or phone (/user/tel-login). In server mode the phone route is the local
 * sign-in: one account field, no tabs, no sign-up. Drawn without antd (components/light-controls.tsx), so the
 * first page most visitors open stays small.
 */
export default function LoginPage({ method }: { method: LoginMethod }) {
  const { t } = useTranslation();
  const { mode, info, branding } = useBoot();
  const navigate = useNavigate();
  const { search } = useLocation();
  const size = lightSize(useCompact());

  const methods = loginMethods(mode, branding.loginMode);
  const first = methods[0] ?? 'mail';
  if (!methods.includes(method)) return <Navigate to={`${LOGIN_ROUTE[first]}${search}`} replace />;

  const local = mode === 'server';
  const canSignUp = !local && info?.signUp !== false;

  return (
    <>
      {local ? (
        <div className="lg-user__hint">{t('login.localHint')}</div>
      ) : (
        <MethodTabs methods={methods} active={method} onChange={(next) => void navigate(`${LOGIN_ROUTE[next]}${search}`)} />
      )}
      {/* Keyed: another method starts from its own remembered account, without the other's problems. */}
      <LoginForm key={method} method={method} local={local} size={size} />
      {/* Users of an account with its own identity provider sign in there (docs/api.md "Single sign-on"). */}
      <LightButton
        className="lg-user__sso"
        size={size}
        block
        icon={KeyOutlined}
        onClick={() => void navigate(`/user/sso${search}`)}
        data-testid="sso-open"
      >
        {t('sso.signIn')}
      </LightButton>
      {canSignUp && (
        <div className="lg-user__switch">
          {t('login.noAccount')} <Link to={SIGN_UP_ROUTE[method]}>{t('login.signUp')}</Link>
        </div>
      )}
    </>
  );
}

function LoginForm({ method, local, size }: { method: LoginMethod; local: boolean; size: LightSize }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const signedIn = useSignedIn();
  const login = useLogin();
  // Shown once the server asks for it, for a device that has not signed in to the account before.
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [remember, setRemember] = useState(() => session.remember());
  // A sign-up just made names its account; else the account remembered for this sign-in method.
  const remembered = params.get('account') ?? (session.loginType() === method ? session.rememberedAccount() : undefined);
  const form = useLightForm({
    initial: { account: remembered ?? '', password: '', captcha: '' },
    rules: () => ({
      account: { check: local ? checkAccount : method === 'mail' ? checkLoginMail : checkPhone },
      password: { check: checkLoginPassword },
      ...(captchaAsked ? { captcha: { check: checkCaptcha } } : {}),
    }),
  });
  const captchaState = useLightCaptcha('login', () => form.setValue('captcha', ''), captchaAsked);

  const onValid = async (values: { account: string; password: string; captcha: string }) => {
    const account = values.account.trim();
    const captcha =
      captchaAsked && captchaState.captchaId && values.captcha ? { captchaId: captchaState.captchaId, captcha: values.captcha.trim() } : {};
    const result = await login.mutateAsync({ account, password: values.password, remember, ...captcha }).catch((error: unknown) => {
      // The server has shown its message; a picture code it asks for appears under the password.
      if (error instanceof ApiError && error.code !== undefined && CAPTCHA_ASKED.has(error.code)) setCaptchaAsked(true);
      return undefined;
    });
    // Each picture code is good for one try.
    if (captchaAsked) captchaState.refresh();
    if (!result) return;
    signedIn(result, { loginType: method, remember, account, redirect: params.get('redirect') });
  };

  const account = form.field('account');
  const password = form.field('password');
  return (
    <form name={`login-${method}`} noValidate onSubmit={form.handleSubmit(onValid)}>
      <LightField field={account}>
        {local ? (
          <LightInput
            field={account}
            size={size}
            prefix={UserOutlined}
            label={t('login.account')}
            maxLength={100}
            autoComplete="username"
          />
        ) : (
          <ContactInput method={method} field={account} size={size} label={t(method === 'mail' ? 'login.mail' : 'login.phone')} />
        )}
      </LightField>
      <LightField field={password}>
        <LightInput
          field={password}
          size={size}
          prefix={LockOutlined}
          label={t('login.password')}
          password
          maxLength={50}
          autoComplete="current-password"
        />
      </LightField>
      {captchaAsked && <LightCaptchaField state={captchaState} field={form.field('captcha')} size={size} />}
      <div className="lg-user__links">
        <LightCheckbox checked={remember} onChange={setRemember}>
          {t('login.remember')}
        </LightCheckbox>
        {!local && <Link to={`/user/forgetPwd?type=${FORGOT_TYPE[method]}`}>{t('login.forgot')}</Link>}
      </div>
      <LightButton kind="primary" type="submit" size={size} block loading={login.isPending}>
        {t('login.submit')}
      </LightButton>
    </form>
  );
}
