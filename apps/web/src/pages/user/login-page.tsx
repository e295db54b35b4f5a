import { useState } from 'react';
import { Button, Checkbox, Form, Input } from 'antd';
import { KeyOutlined, LockOutlined, MailOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { session } from '../../api/session.ts';
import { useLogin } from '../../features/auth/api.ts';
import { useSignedIn } from './use-signed-in.ts';
import { loginMethods, type LoginMethod } from '../../features/branding/branding.ts';
import { BLUR_VALIDATION, useBlurRules } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { checkAccount, checkCaptcha, checkLoginPassword, checkLoginMail, checkPhone } from '../../components/validators.ts';
import { ApiError } from '../../api/client.ts';
import { CaptchaField, useCaptchaField } from './captcha-field.tsx';
import { MethodTabs } from './method-tabs.tsx';
import { useCompact } from './use-compact.ts';

interface LoginValues {
  account: string;
  password: string;
  remember: boolean;
  captchaId?: string;
  captcha?: string;
}

/** The answers after which the sign-in shows the picture code: too many failures for the account, or a wrong code. */
const CAPTCHA_ASKED = new Set([100021, 240101]);

const LOGIN_ROUTE: Record<LoginMethod, string> = { mail: '/user/login', tel: '/user/tel-login' };
const SIGN_UP_ROUTE: Record<LoginMethod, string> = { mail: '/user/registered', tel: '/user/tel-registered' };
const FORGOT_TYPE: Record<LoginMethod, string> = { mail: 'login', tel: 'tel-login' };

/**
 * Sign-in by e-mail (/user/login) or phone (/user/tel-login). In server mode the phone route is the local
 * sign-in: one account field, no tabs, no sign-up.
 */
export default function LoginPage({ method }: { method: LoginMethod }) {
  const { t } = useTranslation();
  const { mode, info, branding } = useBoot();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [params] = useSearchParams();
  const signedIn = useSignedIn();
  const login = useLogin();
  const blurRules = useBlurRules();
  const compact = useCompact();
  const [form] = Form.useForm<LoginValues>();
  const size = compact ? 'middle' : 'large';
  // Shown once the server asks for it, for a device that has not signed in to the account before.
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const captchaState = useCaptchaField(form, 'login', captchaAsked);

  const methods = loginMethods(mode, branding.loginMode);
  const first = methods[0] ?? 'mail';
  if (!methods.includes(method)) return <Navigate to={`${LOGIN_ROUTE[first]}${search}`} replace />;

  const local = mode === 'server';
  const canSignUp = !local && info?.signUp !== false;
  // A sign-up just made names its account; else the account remembered for this sign-in method.
  const remembered = params.get('account') ?? (session.loginType() === method ? session.rememberedAccount() : undefined);

  const onFinish = async (values: LoginValues) => {
    const account = values.account.trim();
    const captcha =
      captchaAsked && values.captchaId && values.captcha ? { captchaId: values.captchaId, captcha: values.captcha.trim() } : {};
    const result = await login
      .mutateAsync({ account, password: values.password, remember: values.remember, ...captcha })
      .catch((error: unknown) => {
        // The server has shown its message; a picture code it asks for appears under the password.
        if (error instanceof ApiError && error.code !== undefined && CAPTCHA_ASKED.has(error.code)) setCaptchaAsked(true);
        return undefined;
      });
    // Each picture code is good for one try.
    if (captchaAsked) captchaState.refresh();
    if (!result) return;
    signedIn(result, { loginType: method, remember: values.remember, account, redirect: params.get('redirect') });
  };

  const accountInput = local ? (
    <Form.Item name="account" rules={blurRules(checkAccount)}>
      <Input
        size={size}
        prefix={<UserOutlined />}
        placeholder={t('login.account')}
        aria-label={t('login.account')}
        maxLength={100}
        autoComplete="username"
      />
    </Form.Item>
  ) : method === 'mail' ? (
    <Form.Item name="account" rules={blurRules(checkLoginMail)}>
      <Input
        size={size}
        prefix={<MailOutlined />}
        placeholder={t('login.mail')}
        aria-label={t('login.mail')}
        maxLength={50}
        autoComplete="email"
      />
    </Form.Item>
  ) : (
    <Form.Item name="account" rules={blurRules(checkPhone)}>
      <Input
        size={size}
        prefix={<MobileOutlined />}
        placeholder={t('login.phone')}
        aria-label={t('login.phone')}
        maxLength={16}
        autoComplete="tel"
        inputMode="tel"
      />
    </Form.Item>
  );

  return (
    <>
      {local ? (
        <div className="lg-user__hint">{t('login.localHint')}</div>
      ) : (
        <MethodTabs methods={methods} active={method} onChange={(next) => void navigate(`${LOGIN_ROUTE[next]}${search}`)} />
      )}
      <Form<LoginValues>
        key={method}
        form={form}
        name={`login-${method}`}
        size={size}
        onFinish={onFinish}
        initialValues={{ account: remembered ?? '', password: '', remember: session.remember() }}
        validateTrigger={BLUR_VALIDATION}
        requiredMark={false}
      >
        {accountInput}
        <Form.Item name="password" rules={blurRules(checkLoginPassword)}>
          <PasswordInput
            size={size}
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            aria-label={t('login.password')}
            maxLength={50}
            autoComplete="current-password"
          />
        </Form.Item>
        {captchaAsked && <CaptchaField state={captchaState} size={size} rules={blurRules(checkCaptcha)} />}
        <div className="lg-user__links">
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>{t('login.remember')}</Checkbox>
          </Form.Item>
          {!local && <Link to={`/user/forgetPwd?type=${FORGOT_TYPE[method]}`}>{t('login.forgot')}</Link>}
        </div>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" size={size} block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
      {/* Users of an account with its own identity provider sign in there (docs/api.md "Single sign-on"). */}
      <Button
        className="lg-user__sso"
        size={size}
        block
        icon={<KeyOutlined />}
        onClick={() => void navigate(`/user/sso${search}`)}
        data-testid="sso-open"
      >
        {t('sso.signIn')}
      </Button>
      {canSignUp && (
        <div className="lg-user__switch">
          {t('login.noAccount')} <Link to={SIGN_UP_ROUTE[method]}>{t('login.signUp')}</Link>
        </div>
      )}
    </>
  );
}
