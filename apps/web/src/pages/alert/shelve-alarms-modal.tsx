import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_LIMITS } from '@lumigrid/contract/browser';
import { useShelveAlarms } from '../../features/alarms/api.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { useChosenRowsForm } from './use-chosen-rows-form.ts';

/** Shelving is always for a while (ISA-18.2): these choices, up to the contract's week. */
const DURATIONS_MIN = [15, 60, 480, 1440, 10080] as const;
type Duration = `${(typeof DURATIONS_MIN)[number]}`;

/** Shelves the chosen alarms for a while with one reason; open while `ids` is not empty. */
export function ShelveAlarmsModal({ ids, onClose }: { ids: string[]; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const shelve = useShelveAlarms();
  const { form, submit, afterClose } = useChosenRowsForm<{ minutes: number; reason: string }>(
    ({ minutes, reason }) => shelve.mutateAsync({ ids, minutes, reason: reason.trim() }),
    (count) => t('alarms.shelvedDone', { count }),
    onClose,
  );

  return (
    <FormModal
      open={ids.length > 0}
      title={t('alarms.shelveTitle', { count: ids.length })}
      okText={t('alarms.shelve')}
      confirmLoading={shelve.isPending}
      onSubmit={submit}
      onCancel={() => onClose(false)}
      afterClose={afterClose}
      okButtonProps={{ 'data-testid': 'alarms-shelve-ok' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ minutes: 60 }}>
        <Form.Item name="minutes" label={t('alarms.shelveFor')} rules={[{ required: true }]}>
          <Select
            data-testid="alarms-shelve-minutes"
            options={DURATIONS_MIN.filter((m) => m <= ALARM_LIMITS.shelveMinutes.max).map((m) => ({
              value: m,
              label: t(`alarms.duration.${String(m) as Duration}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('alarms.reason')}
          rules={[{ required: true, whitespace: true, message: t('alarms.reasonRequired') }]}
        >
          <Input
            maxLength={ALARM_LIMITS.reason.max}
            showCount
            placeholder={t('alarms.reasonPlaceholder')}
            data-testid="alarms-shelve-reason"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
