import { Button, Result } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown after a successful sign-up, with a button to the matching sign-in page. */
export default function RegisterResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const account = params.get('account');
  const loginRoute = params.get('type') === 'tel' ? '/user/tel-login' : '/user/login';
  return (
    <Result
      status="success"
      style={{ padding: '8px 0 0' }}
      title={t('registerResult.title')}
      subTitle={account ? t('registerResult.description', { account }) : t('registerResult.descriptionNoAccount')}
      extra={
        <Button
          type="primary"
          size="large"
          // The new account is filled in on the sign-in form, so only the password remains to type.
          onClick={() => void navigate(account ? `${loginRoute}?account=${encodeURIComponent(account)}` : loginRoute)}
        >
          {t('registerResult.signIn')}
        </Button>
      }
    />
  );
}
