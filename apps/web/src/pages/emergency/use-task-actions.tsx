import { App, type ButtonProps } from 'antd';
import dayjs from 'dayjs';
import { useSiteTimes } from '../../features/projects/site-time.ts';
import { useTranslation } from 'react-i18next';
import type { EmergencyTask, EmergencyTaskAction } from '@lumigrid/contract/browser';
import { useExecuteEmergencyTask } from '../../features/emergency/api.ts';
import { stateText } from '../../features/emergency/texts.ts';

/**
 * Start, stop and delete of a task with the spec's confirmations ("sure to start the test now", ...), and what
 * the gateway answered: lights started, lights it refused with their state (29: a life test while charging),
 * a first wave held back by the 24-hour rest of a life test.
 */
export function useTaskActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const execute = useExecuteEmergencyTask();
  const siteTime = useSiteTimes();

  const run = async (task: Pick<EmergencyTask, 'id' | 'name' | 'projectId'>, action: EmergencyTaskAction) => {
    const result = await execute.mutateAsync({ id: task.id, action });
    if (action === 'start') {
      if (result.startsAt && dayjs(result.startsAt).isAfter(dayjs().add(1, 'minute')))
        void message.info(t('emergency.action.startsLater', { at: siteTime({ projectId: task.projectId }, result.startsAt) }));
      else void message.success(t('emergency.action.started', { count: result.started }));
      if (result.refused.length)
        modal.warning({
          title: t('emergency.action.refusedTitle', { count: result.refused.length }),
          content: (
            <ul style={{ paddingInlineStart: 18, margin: 0 }}>
              {result.refused.map((r) => (
                <li key={r.deviceId}>
                  {r.name}: {stateText(t, r.state)}
                </li>
              ))}
            </ul>
          ),
        });
    } else if (action === 'stop') void message.success(t('emergency.action.stopped', { count: result.stopped }));
    else {
      void message.success(t('emergency.action.deleted', { name: task.name }));
      onDeleted?.();
    }
  };

  /** Asks with the spec's confirmation text, then acts; a refusal has been shown by the client already. */
  const confirm = (task: Pick<EmergencyTask, 'id' | 'name' | 'projectId'>, action: EmergencyTaskAction) =>
    modal.confirm({
      title: t(`emergency.confirm.${action}`),
      content: t(`emergency.confirm.${action}Hint`, { name: task.name }),
      okText: t(`emergency.action.${action}`),
      cancelText: t('emergency.cancel'),
      okButtonProps: { danger: action !== 'start', 'data-testid': `emergency-confirm-${action}` } as ButtonProps,
      onOk: () => run(task, action).catch(() => undefined),
    });

  return { confirm, pending: execute.isPending };
}
