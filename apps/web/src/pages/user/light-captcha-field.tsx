import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { useTranslation } from 'react-i18next';
import type { CodePurpose } from '@lumigrid/contract/browser';
import { LightField, LightIcon, LightInput, LightSpin, type LightSize } from '../../components/light-controls.tsx';
import type { LightFieldProps } from '../../components/light-form.ts';
import { useCaptcha } from '../../features/auth/api.ts';

/**
 * The picture code of a light form: `clear` empties the typed code, and a new picture is drawn on a click and
 * after each use. The sign-in draws one only once the server asked for it (`enabled`).
 */
export function useLightCaptcha(purpose: CodePurpose | 'login', clear: () => void, enabled = true) {
  const captcha = useCaptcha(purpose, enabled);
  const refresh = () => {
    clear();
    void captcha.refetch();
  };
  return { captcha, refresh, captchaId: captcha.data?.captchaId };
}

export function LightCaptchaField({
  state,
  field,
  size,
}: {
  state: ReturnType<typeof useLightCaptcha>;
  field: LightFieldProps;
  size: LightSize;
}) {
  const { t } = useTranslation();
  const { captcha, refresh } = state;
  const image = captcha.data?.image;
  return (
    <LightField field={field}>
      <div className="lg-field__row">
        <LightInput field={field} prefix={SafetyOutlined} size={size} label={t('register.captcha')} maxLength={10} autoComplete="off" />
        <button
          type="button"
          className="lg-user__captcha-button"
          onClick={refresh}
          title={t('register.captchaRefresh')}
          aria-label={t('register.captchaRefresh')}
        >
          {image && !captcha.isFetching ? (
            <img className="lg-user__captcha" src={image} alt={t('register.captcha')} />
          ) : (
            <span className="lg-user__captcha lg-user__captcha--empty">
              {captcha.isFetching ? <LightSpin size="small" /> : <LightIcon icon={SafetyOutlined} />}
            </span>
          )}
        </button>
      </div>
    </LightField>
  );
}
