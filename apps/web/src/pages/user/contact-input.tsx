import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import { LIMITS } from '@lumigrid/contract/browser';
import type { LoginMethod } from '../../features/branding/branding.ts';
import { LightInput, type LightSize } from '../../components/light-controls.tsx';
import type { LightFieldProps } from '../../components/light-form.ts';

/** The e-mail address or phone number a user is reached at, with the autofill and keyboard each wants. */
export function ContactInput({
  method,
  field,
  size,
  label,
}: {
  method: LoginMethod;
  field: LightFieldProps;
  size: LightSize;
  label: string;
}) {
  return method === 'mail' ? (
    <LightInput field={field} size={size} prefix={MailOutlined} label={label} maxLength={LIMITS.mail.max} autoComplete="email" />
  ) : (
    <LightInput field={field} size={size} prefix={MobileOutlined} label={label} maxLength={16} autoComplete="tel" inputMode="tel" />
  );
}
