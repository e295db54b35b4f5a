import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGS, isLang } from '@lumigrid/contract/browser';
import { useBoot } from './boot.tsx';

/** The language selector of spec section 2 (cn, tc, en, ja), each shown in its own script. */
export function LanguageSelect({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { lang, chooseLang } = useBoot();
  return (
    <Dropdown
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGS.map((code) => ({ key: code, label: t(`lang.${code}`) })),
        onClick: ({ key }) => {
          if (isLang(key)) chooseLang(key);
        },
      }}
      placement="bottomRight"
    >
      {/* The name starts with the words on the button, as speech control users say them (WCAG 2.5.3). */}
      <Button type="text" className={className} icon={<GlobalOutlined />} aria-label={`${t(`lang.${lang}`)} (${t('lang.label')})`}>
        {t(`lang.${lang}`)}
      </Button>
    </Dropdown>
  );
}
