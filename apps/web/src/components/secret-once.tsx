import type { ReactNode } from 'react';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The screens that create something with a secret the server shows only once, and their test id prefixes. */
type SecretScreen = { screen: 'apiKeys'; testid: 'api-key' } | { screen: 'webhooks'; testid: 'webhook' };

/** The secret just created, to copy now, with a warning that it is never shown again; `children` say how to use it. */
export function SecretOnce({ secret, children, ...of }: SecretScreen & { secret: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="warning" showIcon message={t(`${of.screen}.secretOnce`)} />
      <Typography.Paragraph
        code
        copyable={{ text: secret, tooltips: [t(`${of.screen}.copy`), t(`${of.screen}.copied`)] }}
        style={{ wordBreak: 'break-all' }}
        data-testid={`${of.testid}-secret`}
      >
        {secret}
      </Typography.Paragraph>
      {children}
    </Space>
  );
}

interface SecretFooterProps {
  /** Whether the secret is on screen: then nothing is left to send, only to close. */
  shown: boolean;
  onClose: () => void;
  onSend: () => void;
  sending: boolean;
  sendText: string;
}

/** The buttons of a dialog that ends by showing a secret: cancel and send, then only "done". */
export function SecretFooter({ shown, onClose, onSend, sending, sendText, ...of }: SecretScreen & SecretFooterProps) {
  const { t } = useTranslation();
  return shown ? (
    <Button type="primary" onClick={onClose} data-testid={`${of.testid}-done`}>
      {t(`${of.screen}.done`)}
    </Button>
  ) : (
    <Space>
      <Button onClick={onClose}>{t(`${of.screen}.cancel`)}</Button>
      <Button type="primary" loading={sending} onClick={onSend} data-testid={`${of.testid}-submit`}>
        {sendText}
      </Button>
    </Space>
  );
}
