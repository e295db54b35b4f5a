import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('error.pageNotFoundTitle')}
      subTitle={t('error.pageNotFoundText')}
      extra={
        <Button type="primary" onClick={() => void navigate('/home')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
