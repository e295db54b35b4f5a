import { Form, Input, type FormInstance } from 'antd';
import { LockOutlined, MailOutlined, MobileOutlined, NumberOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS, type CodePurpose } from '@lumigrid/contract/browser';
import type { LoginMethod } from '../../features/branding/branding.ts';
import { useBlurRules } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { checkCode, checkConfirmation, checkMail, checkNewPassword, checkPhone } from '../../components/validators.ts';
import { CaptchaField, type useCaptchaField } from './captcha-field.tsx';
import { SendCodeButton } from './send-code-button.tsx';

/** What the fields below put into their form. */
export interface VerifiedContactValues {
  mail?: string;
  phone?: string;
  captcha: string;
  code: string;
  password: string;
  confirm: string;
}

/**
 * The fields signing up and resetting a password share: the e-mail address or phone number, the picture code, the
 * code sent to that address, and the new password twice.
 */
export function VerifiedContactFields({
  form,
  method,
  purpose,
  captcha,
  size,
  compact,
  passwordLabel,
  confirmLabel,
}: {
  form: FormInstance;
  method: LoginMethod;
  purpose: CodePurpose;
  captcha: ReturnType<typeof useCaptchaField>;
  size: 'large' | 'middle';
  /** A short window: the password rule is left to its error message. */
  compact: boolean;
  passwordLabel: string;
  confirmLabel: string;
}) {
  const { t } = useTranslation();
  const blurRules = useBlurRules();
  return (
    <>
      {method === 'mail' ? (
        <Form.Item name="mail" rules={blurRules(checkMail)}>
          <Input
            prefix={<MailOutlined />}
            placeholder={t('register.mail')}
            aria-label={t('register.mail')}
            maxLength={LIMITS.mail.max}
            autoComplete="email"
          />
        </Form.Item>
      ) : (
        <Form.Item name="phone" rules={blurRules(checkPhone)}>
          <Input
            prefix={<MobileOutlined />}
            placeholder={t('register.phone')}
            aria-label={t('register.phone')}
            maxLength={16}
            autoComplete="tel"
            inputMode="tel"
          />
        </Form.Item>
      )}
      <CaptchaField state={captcha} size={size} />
      <Form.Item required>
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item name="code" noStyle rules={blurRules(checkCode)}>
            <Input
              prefix={<NumberOutlined />}
              placeholder={t('register.code')}
              aria-label={t('register.code')}
              maxLength={6}
              autoComplete="one-time-code"
              inputMode="numeric"
            />
          </Form.Item>
          <SendCodeButton
            form={form}
            targetField={method === 'mail' ? 'mail' : 'phone'}
            purpose={purpose}
            refreshCaptcha={captcha.refresh}
            size={size}
          />
        </div>
      </Form.Item>
      <Form.Item name="password" rules={blurRules(checkNewPassword)} extra={compact ? undefined : t('validation.passwordRule')}>
        <PasswordInput
          prefix={<LockOutlined />}
          placeholder={passwordLabel}
          aria-label={passwordLabel}
          maxLength={LIMITS.password.max}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="confirm"
        dependencies={['password']}
        rules={blurRules((value) => checkConfirmation(form.getFieldValue('password') as string | undefined)(value))}
      >
        <PasswordInput
          prefix={<LockOutlined />}
          placeholder={confirmLabel}
          aria-label={confirmLabel}
          maxLength={LIMITS.password.max}
          autoComplete="new-password"
        />
      </Form.Item>
    </>
  );
}
