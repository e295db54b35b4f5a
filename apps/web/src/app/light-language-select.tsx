import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@lumigrid/contract/browser';
import { LightButton } from '../components/light-controls.tsx';
import { useBoot } from './boot.tsx';

/** How long the pointer may leave the button and its menu before the menu closes (antd's Dropdown: 0.1 s). */
const CLOSE_AFTER_MS = 100;

/**
 * The language selector of the pages before sign-in, as the signed-in header's (language-select.tsx) looks
 * and behaves without antd: opens under the pointer or on a press, the arrow keys move, Escape closes.
 */
export function LightLanguageSelect() {
  const { t } = useTranslation();
  const { lang, chooseLang } = useBoot();
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);

  const items = () => Array.from(anchor.current?.querySelectorAll<HTMLElement>('[role=menuitemradio]') ?? []);
  const show = () => {
    clearTimeout(closing.current);
    setOpen(true);
  };
  const close = (returnFocus = false) => {
    clearTimeout(closing.current);
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!anchor.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  useEffect(() => () => clearTimeout(closing.current), []);

  const pick = (code: Lang) => {
    close(true);
    if (code !== lang) chooseLang(code);
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    show();
    // The menu is drawn after this render: focus the chosen language then.
    requestAnimationFrame(() => (items().find((item) => item.getAttribute('aria-checked') === 'true') ?? items()[0])?.focus());
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (next !== undefined) {
      event.preventDefault();
      all[(next + all.length) % all.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') close();
  };

  return (
    <div
      className="lg-menu-anchor"
      ref={anchor}
      onPointerEnter={(event) => event.pointerType === 'mouse' && show()}
      onPointerLeave={(event) => {
        if (event.pointerType === 'mouse') closing.current = setTimeout(() => close(), CLOSE_AFTER_MS);
      }}
    >
      {/* The name starts with the words on the button, as speech control users say them (WCAG 2.5.3). */}
      <LightButton
        ref={button}
        kind="text"
        size="middle"
        icon={GlobalOutlined}
        aria-label={`${t(`lang.${lang}`)} (${t('lang.label')})`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={show}
        onKeyDown={onButtonKey}
      >
        {t(`lang.${lang}`)}
      </LightButton>
      {open && (
        <ul className="lg-menu" role="menu" aria-label={t('lang.label')} onKeyDown={onMenuKey}>
          {LANGS.map((code) => (
            <li
              key={code}
              role="menuitemradio"
              aria-checked={code === lang}
              tabIndex={-1}
              className="lg-menu__item"
              lang={code === 'cn' ? 'zh-CN' : code === 'tc' ? 'zh-TW' : code}
              onClick={() => pick(code)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  pick(code);
                }
              }}
            >
              {t(`lang.${code}`)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
