import { App, Button, Space, Typography } from 'antd';
import { RobotOutlined } from '@ant-design/icons';
import { HandIcon } from './hand-icon.tsx';
import { useTranslation } from 'react-i18next';
import { errorMessage, isErrorCode } from '@lumigrid/contract/browser';
import { currentLang } from '../../i18n/index.ts';
import { useExecuteAuto } from './api.ts';
import { autoOutcome } from './auto.ts';

/**
 * "Back to automatic" (execute_auto): hands devices switched by hand back to their sensors and schedules, and
 * says how many were in manual override and which gateways could not be reached.
 */
export function BackToAutomatic({
  deviceIds,
  hint,
  manual = false,
  canControl,
  disabled,
  testId = 'back-to-auto',
}: {
  deviceIds: readonly string[];
  hint: string;
  /** Something is known to be switched by hand: the hint is a warning with the hand. */
  manual?: boolean;
  /** May send it (access 'control'); others read the hint only. */
  canControl: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const auto = useExecuteAuto();

  const handBack = async () => {
    const outcome = autoOutcome(await auto.mutateAsync([...deviceIds]));
    if (outcome.released > 0) void message.success(t('automation.auto.released', { count: outcome.released }));
    else if (outcome.offline.length === 0 && outcome.refused.length === 0) void message.info(t('automation.auto.noneManual'));
    if (outcome.offline.length > 0) void message.warning(t('automation.auto.offline', { names: outcome.offline.join(', ') }));
    for (const part of outcome.refused) {
      const text = isErrorCode(part.code) ? errorMessage(part.code, currentLang()) : t('error.business', { code: part.code });
      void message.error(`${part.gatewayName}: ${text}`);
    }
  };

  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }} data-testid={`${testId}-section`}>
      <Typography.Text type={manual ? 'warning' : 'secondary'} style={{ fontSize: manual ? undefined : 12 }} data-testid={`${testId}-hint`}>
        {manual && <HandIcon style={{ marginInlineEnd: 6 }} />}
        {hint}
      </Typography.Text>
      {canControl && (
        <Button
          icon={<RobotOutlined />}
          disabled={disabled || deviceIds.length === 0}
          loading={auto.isPending}
          onClick={() => void handBack().catch(() => undefined)}
          data-testid={testId}
        >
          {t('automation.auto.button')}
        </Button>
      )}
    </Space>
  );
}
