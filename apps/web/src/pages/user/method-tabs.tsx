import { useTranslation } from 'react-i18next';
import { LightTabs } from '../../components/light-controls.tsx';
import type { LoginMethod } from '../../features/branding/branding.ts';

/** E-mail / phone tabs; each tab is its own route, so the tabs only navigate. Hidden with one method. */
export function MethodTabs({
  methods,
  active,
  onChange,
}: {
  methods: LoginMethod[];
  active: LoginMethod;
  onChange: (method: LoginMethod) => void;
}) {
  const { t } = useTranslation();
  if (methods.length < 2) return null;
  return (
    <LightTabs
      className="lg-user__tabs"
      active={active}
      onChange={onChange}
      items={methods.map((method) => ({ key: method, label: method === 'mail' ? t('login.tabMail') : t('login.tabPhone') }))}
    />
  );
}
