import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** What the shell shows in place of a page the user may not open; it loads then (antd's Result and its pictures). */
export default function Forbidden() {
  const { t } = useTranslation();
  return <Result status="403" title={t('error.forbiddenTitle')} subTitle={t('error.forbiddenText')} />;
}
