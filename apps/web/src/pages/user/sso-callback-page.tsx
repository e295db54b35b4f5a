import { useEffect, useRef, useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { ApiError } from '../../api/client.ts';
import { loginRouteFor } from '../../api/session.ts';
import { useSignedIn } from './use-signed-in.ts';
import { useFinishSso } from '../../features/sso/api.ts';
import { takeSsoRedirect } from './sso-redirect.ts';

/**
 * Where the identity provider sends the browser back (/user/sso/callback): hands its answer to the server once
 * (the state works once), then opens the app signed in, or says why not.
 */
export default function SsoCallbackPage() {
  const { t } = useTranslation();
  const { mode } = useBoot();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const finish = useFinishSso();
  const signedIn = useSignedIn();
  const [failure, setFailure] = useState<string>();
  const handed = useRef(false);

  useEffect(() => {
    if (handed.current) return;
    handed.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const iss = params.get('iss');
    // The provider refused (the person cancelled, or the client is not allowed): it says so itself.
    if (!code || !state) {
      setFailure(params.get('error_description') ?? params.get('error') ?? t('sso.noAnswer'));
      return;
    }
    finish
      .mutateAsync({ code, state, ...(iss ? { iss } : {}) })
      .then((result) =>
        signedIn(result, { loginType: mode === 'server' ? 'tel' : 'mail', remember: false, account: '', redirect: takeSsoRedirect() }),
      )
      .catch((error: unknown) => setFailure(error instanceof ApiError && error.code !== undefined ? error.message : t('sso.noAnswer')));
    // Once per visit: the answer's state is spent by the first hand-over.
  }, []);

  if (!failure)
    return (
      <div className="lg-user__hint" role="status">
        <Spin size="large" style={{ display: 'block', margin: '32px auto 16px' }} />
        {t('sso.finishing')}
      </div>
    );
  return (
    <Result
      status="warning"
      style={{ padding: '8px 0 0' }}
      title={t('sso.failed')}
      subTitle={<span data-testid="sso-failure">{failure}</span>}
      extra={[
        <Button key="again" type="primary" onClick={() => void navigate('/user/sso')}>
          {t('sso.again')}
        </Button>,
        <Button key="back" onClick={() => void navigate(loginRouteFor(mode))}>
          {t('sso.back')}
        </Button>,
      ]}
    />
  );
}
