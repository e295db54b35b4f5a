import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LightButton } from '../components/light-controls.tsx';
import './screen-error.css';

/**
 * A screen's code that did not arrive: a dropped connection, or a platform updated since the tab was opened (the
 * old build's chunks are gone). The messages are Chromium's, Firefox's and Safari's for a failed `import()`.
 */
export function isScreenLoadFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

/**
 * What a route shows when its screen failed to load or to draw, instead of a blank page or the router's
 * English developer message: what happened in the user's language, and a reload, which fetches the current
 * build. Drawn without antd, whose own chunk may be the one that failed.
 */
export function ScreenError({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { t } = useTranslation();
  const notLoaded = isScreenLoadFailure(useRouteError());
  return (
    <div className="lg-screen-error" role="alert">
      <h1 className="lg-screen-error__title">{t(notLoaded ? 'screenError.loadTitle' : 'screenError.crashTitle')}</h1>
      <p className="lg-screen-error__text">{t(notLoaded ? 'screenError.loadText' : 'screenError.crashText')}</p>
      <LightButton kind="primary" size="large" onClick={reload}>
        {t('screenError.reload')}
      </LightButton>
    </div>
  );
}
