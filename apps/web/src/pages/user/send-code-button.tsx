import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, type CodePurpose } from '@lumigrid/contract/browser';
import { toast } from '../../app/toast.ts';
import { LightButton, type LightSize } from '../../components/light-controls.tsx';
import { useSendCode } from '../../features/auth/api.ts';
import { checkCaptcha, secondsLeft, type ValidationKey } from '../../components/validators.ts';

/**
 * Sends a verification code to the form's address after checking it and the picture code, then counts
 * down 60 s. The picture code is single-use, so it is redrawn after every attempt.
 */
export function SendCodeButton({
  target,
  checkTarget,
  captcha,
  captchaId,
  onCaptchaProblem,
  purpose,
  refreshCaptcha,
  size,
}: {
  /** The address or number typed. */
  target: string;
  /** Shows the address field's problem, if any; true when it is fine. */
  checkTarget: () => boolean;
  captcha: string;
  captchaId: string | undefined;
  onCaptchaProblem: (key: ValidationKey) => void;
  purpose: CodePurpose;
  refreshCaptcha: () => void;
  size: LightSize;
}) {
  const { t } = useTranslation();
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
    if (!checkTarget()) return;
    const captchaProblem = checkCaptcha(captcha);
    if (captchaProblem) {
      onCaptchaProblem(captchaProblem);
      return;
    }
    try {
      await sendCode.mutateAsync({ target: target.trim(), purpose, captchaId: captchaId ?? '', captcha: captcha.trim() });
      toast('success', t('register.codeSent'));
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
    <LightButton size={size} disabled={left > 0} loading={sendCode.isPending} onClick={() => void onClick()} style={{ minWidth: 128 }}>
      {left > 0 ? t('register.resend', { seconds: left }) : t('register.sendCode')}
    </LightButton>
  );
}
