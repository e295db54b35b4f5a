import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import NumberOutlined from '@ant-design/icons-svg/es/asn/NumberOutlined';
import { useTranslation } from 'react-i18next';
import { LIMITS, type CodePurpose } from '@lumigrid/contract/browser';
import type { LoginMethod } from '../../features/branding/branding.ts';
import { LightField, LightInput, type LightSize } from '../../components/light-controls.tsx';
import type { LightForm, LightRule } from '../../components/light-form.ts';
import { checkCode, checkConfirmation, checkMail, checkNewPassword, checkPhone } from '../../components/validators.ts';
import { LightCaptchaField, useLightCaptcha } from './light-captcha-field.tsx';
import { SendCodeButton } from './send-code-button.tsx';
import { ContactInput } from './contact-input.tsx';

/** The fields below, in the form of the page that holds them. */
export type VerifiedContactField = 'mail' | 'phone' | 'captcha' | 'code' | 'password' | 'confirm';

export const VERIFIED_CONTACT_INITIAL: Record<VerifiedContactField, string> = {
  mail: '',
  phone: '',
  captcha: '',
  code: '',
  password: '',
  confirm: '',
};

/** The rules of the fields below; the picture code is checked by the send-code button, not by the form. */
export function verifiedContactRules(
  method: LoginMethod,
  values: Record<VerifiedContactField, string>,
): Partial<Record<VerifiedContactField, LightRule>> {
  return {
    ...(method === 'mail' ? { mail: { check: checkMail } } : { phone: { check: checkPhone } }),
    code: { check: checkCode },
    password: { check: checkNewPassword },
    confirm: { check: checkConfirmation(values.password) },
  };
}

/** The confirmation is checked again when the password changes. */
export const VERIFIED_CONTACT_DEPENDENTS: Partial<Record<VerifiedContactField, VerifiedContactField[]>> = { password: ['confirm'] };

/**
 * The fields signing up and resetting a password share: the e-mail address or phone number, the picture code, the
 * code sent to that address, and the new password twice.
 */
export function VerifiedContactFields({
  form,
  captcha,
  method,
  purpose,
  size,
  compact,
  passwordLabel,
  confirmLabel,
}: {
  form: LightForm<VerifiedContactField>;
  captcha: ReturnType<typeof useLightCaptcha>;
  method: LoginMethod;
  purpose: CodePurpose;
  size: LightSize;
  /** A short window: the password rule is left to its error message. */
  compact: boolean;
  passwordLabel: string;
  confirmLabel: string;
}) {
  const { t } = useTranslation();
  const target = method === 'mail' ? form.field('mail') : form.field('phone');
  const code = form.field('code');
  const password = form.field('password');
  const confirm = form.field('confirm');
  return (
    <>
      <LightField field={target}>
        <ContactInput method={method} field={target} size={size} label={t(method === 'mail' ? 'register.mail' : 'register.phone')} />
      </LightField>
      <LightCaptchaField state={captcha} field={form.field('captcha')} size={size} />
      <LightField field={code}>
        <div className="lg-field__row">
          <LightInput
            field={code}
            size={size}
            prefix={NumberOutlined}
            label={t('register.code')}
            maxLength={6}
            autoComplete="one-time-code"
            inputMode="numeric"
          />
          <SendCodeButton
            target={target.value}
            checkTarget={() => form.validate([method === 'mail' ? 'mail' : 'phone'])}
            captcha={form.values.captcha}
            captchaId={captcha.captchaId}
            onCaptchaProblem={(key) => form.setProblem('captcha', { key })}
            purpose={purpose}
            refreshCaptcha={captcha.refresh}
            size={size}
          />
        </div>
      </LightField>
      {[
        { field: password, label: passwordLabel, extra: compact ? undefined : t('validation.passwordRule') },
        { field: confirm, label: confirmLabel, extra: undefined },
      ].map(({ field, label, extra }) => (
        <LightField key={field.name} field={field} extra={extra}>
          <LightInput
            field={field}
            size={size}
            prefix={LockOutlined}
            label={label}
            password
            maxLength={LIMITS.password.max}
            autoComplete="new-password"
          />
        </LightField>
      ))}
    </>
  );
}
