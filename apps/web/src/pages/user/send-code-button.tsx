import { useEffect, useState } from 'react';
import { App, Button, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type CodePurpose } from '@lumigrid/contract/browser';
import { useSendCode } from '../../features/auth/api.ts';
import { checkCaptcha, secondsLeft } from '../../components/validators.ts';

/**
 * Sends a verification code to the form's address after checking it and the picture code, then counts
 * down 60 s. The picture code is single-use, so it is redrawn after every attempt.
 */
export function SendCodeButton({
  form,
  targetField,
  purpose,
  refreshCaptcha,
  size,
}: {
  form: FormInstance;
  targetField: 'mail' | 'phone';
  purpose: CodePurpose;
  refreshCaptcha: () => void;
  size: 'large' | 'middle';
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const sendCode = useSendCode();
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(until, now);

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);

  const onClick = async () => {
    let values: Record<string, string>;
    try {
      values = await form.validateFields([targetField]);
    } catch {
      return;
    }
    const captchaProblem = checkCaptcha((form.getFieldValue('captcha') as string | undefined) ?? '');
    if (captchaProblem) {
      form.setFields([{ name: 'captcha', errors: [t(captchaProblem)] }]);
      return;
    }
    const captchaId = form.getFieldValue('captchaId') as string | undefined;
    try {
      await sendCode.mutateAsync({
        target: (values[targetField] ?? '').trim(),
        purpose,
        captchaId: captchaId ?? '',
        captcha: ((form.getFieldValue('captcha') as string | undefined) ?? '').trim(),
      });
      void message.success(t('register.codeSent'));
      const start = Date.now();
      setNow(start);
      setUntil(start + LIMITS.verificationCode.resendMs);
    } catch {
      // The client has shown the server's message (too fast 240002, daily limit 250008, captcha 240101).
    } finally {
      refreshCaptcha();
    }
  };

  return (
    <Button size={size} disabled={left > 0} loading={sendCode.isPending} onClick={onClick} style={{ minWidth: 128 }}>
      {left > 0 ? t('register.resend', { seconds: left }) : t('register.sendCode')}
    </Button>
  );
}
