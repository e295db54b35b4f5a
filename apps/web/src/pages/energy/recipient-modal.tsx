import { useMemo } from 'react';
import { App, Checkbox, type ButtonProps, Col, Form, Input, Radio, Row, Select, Switch, TimePicker, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  isLang,
  isMail,
  LANGS,
  MONTH_DAYS,
  RECIPIENT_LIMITS,
  REPORT_CONTENTS,
  REPORT_UNITS,
  type Recipient,
} from '@lumigrid/contract/browser';
import { useAddRecipient, useEditRecipient } from '../../features/reports/api.ts';
import { recipientFields, recipientForm, WEEKDAYS, type RecipientForm } from '../../features/reports/recipient-form.ts';
import { FormModal } from '../../components/form-modal.tsx';

/** Every zone the browser knows, for a recipient who reads the reports elsewhere. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * Adds a recipient to a project (`recipient` undefined) or changes one: who, how often and when the report goes
 * out, what it holds, and whether faults are mailed as they are raised.
 */
export function RecipientModal({
  open,
  projectId,
  recipient,
  onClose,
}: {
  open: boolean;
  projectId: string;
  recipient: Recipient | undefined;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<RecipientForm>();
  const add = useAddRecipient();
  const edit = useEditRecipient();
  const unit = Form.useWatch('unit', form);
  const initial = useMemo(() => recipientForm(recipient, isLang(i18n.language) ? i18n.language : 'en'), [recipient, i18n.language]);
  const zones = useMemo(() => timeZones(initial.timeZone).map((zone) => ({ value: zone, label: zone })), [initial.timeZone]);

  const save = async (values: RecipientForm) => {
    const fields = recipientFields(values);
    if (recipient) await edit.mutateAsync({ id: recipient.id, ...fields });
    else await add.mutateAsync({ projectId, ...fields });
    void message.success(t(recipient ? 'reports.saved' : 'reports.added'));
    onClose();
  };

  return (
    <FormModal
      open={open}
      title={t(recipient ? 'reports.editTitle' : 'reports.addTitle')}
      width={640}
      okText={t('reports.save')}
      confirmLoading={add.isPending || edit.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'recipient-save' } as ButtonProps}
    >
      <Form<RecipientForm>
        form={form}
        layout="vertical"
        initialValues={initial}
        preserve={false}
        onFinish={(values) => void save(values).catch(() => undefined)}
        data-testid="recipient-form"
      >
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={t('reports.field.name')}
              rules={[
                { required: true, whitespace: true, message: t('reports.form.nameRequired') },
                { max: RECIPIENT_LIMITS.name.max, message: t('reports.form.nameLength', { max: RECIPIENT_LIMITS.name.max }) },
              ]}
            >
              <Input maxLength={RECIPIENT_LIMITS.name.max} data-testid="recipient-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="mail"
              label={t('reports.field.mail')}
              rules={[
                { required: true, whitespace: true, message: t('reports.form.mailRequired') },
                {
                  validator: async (_rule, value: string | undefined) => {
                    if (value?.trim() && !isMail(value.trim())) throw new Error(t('reports.form.mailFormat'));
                  },
                },
              ]}
            >
              <Input inputMode="email" data-testid="recipient-mail" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="unit" label={t('reports.field.unit')} rules={[{ required: true }]}>
          <Radio.Group
            optionType="button"
            options={REPORT_UNITS.map((value) => ({ value, label: t(`reports.unit.${value}`) }))}
            data-testid="recipient-unit"
          />
        </Form.Item>
        <Row gutter={16}>
          {unit === 'month' && (
            <Col xs={24} sm={8}>
              <Form.Item
                name="monthDay"
                label={t('reports.field.monthDay')}
                rules={[{ required: true, message: t('reports.form.monthDayRequired') }]}
              >
                <Select
                  options={MONTH_DAYS.map((value) => ({ value, label: t(`reports.monthDay.${value}`) }))}
                  data-testid="recipient-month-day"
                />
              </Form.Item>
            </Col>
          )}
          {unit === 'week' && (
            <Col xs={24} sm={8}>
              <Form.Item
                name="weekday"
                label={t('reports.field.weekday')}
                rules={[{ required: true, message: t('reports.form.weekdayRequired') }]}
              >
                <Select
                  options={WEEKDAYS.map((value) => ({ value, label: t(`reports.weekday.${value}`) }))}
                  data-testid="recipient-weekday"
                />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} sm={8}>
            <Form.Item
              name="sendTime"
              label={t('reports.field.sendTime')}
              rules={[{ required: true, message: t('reports.form.sendTimeRequired') }]}
            >
              <TimePicker format="HH:mm" allowClear={false} needConfirm={false} style={{ width: '100%' }} data-testid="recipient-time" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={unit === 'month' || unit === 'week' ? 8 : 16}>
            <Form.Item
              name="timeZone"
              label={t('reports.field.timeZone')}
              rules={[{ required: true, message: t('reports.form.timeZoneRequired') }]}
            >
              <Select showSearch options={zones} popupMatchSelectWidth={280} data-testid="recipient-zone" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="contents"
          label={t('reports.field.contents')}
          rules={[{ required: true, type: 'array', min: 1, message: t('reports.form.contentsRequired') }]}
        >
          <Checkbox.Group
            options={REPORT_CONTENTS.map((value) => ({ value, label: t(`reports.content.${value}`) }))}
            data-testid="recipient-contents"
          />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="lang" label={t('reports.field.lang')} rules={[{ required: true }]}>
              <Select options={LANGS.map((value) => ({ value, label: t(`lang.${value}`) }))} data-testid="recipient-lang" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="realtimeFaults"
              label={t('reports.field.realtimeFaults')}
              valuePropName="checked"
              extra={
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('reports.realtimeHint', { minutes: RECIPIENT_LIMITS.realtimeIntervalMinutes })}
                </Typography.Text>
              }
            >
              <Switch data-testid="recipient-realtime" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
