import { useEffect, useMemo } from 'react';
import { App, Col, Form, InputNumber, Row, Select, Slider, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Device, GroupView, SensorLinkageView } from '@lumigrid/contract/browser';
import { useSaveLinkage } from '../../features/automation/api.ts';
import { groupsForSensor, LINKAGE_RANGES, linkageDraft, linkageSensorKind, snapHold } from '../../features/automation/linkage.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface Values {
  sensorId?: string;
  groupId?: string;
  onDetectPercent: number;
  onClearPercent: number;
  holdS: number;
  /** Off: the group switches on whatever the daylight ("always"). */
  limitDaylight: boolean;
  lux: number;
}

const DEFAULT_LUX = 300;

/** A percentage as a slider and a box that follow each other. */
function PercentField({
  value,
  onChange,
  min,
  max,
  testId,
}: {
  value?: number;
  onChange?: (v: number) => void;
  min: number;
  max: number;
  testId: string;
}) {
  return (
    <Row gutter={12} align="middle" data-testid={testId}>
      <Col flex="auto">
        <Slider min={min} max={max} value={value} onChange={onChange} tooltip={{ formatter: (v) => `${v ?? 0} %` }} />
      </Col>
      <Col flex="96px">
        <InputNumber min={min} max={max} precision={0} value={value} addonAfter="%" onChange={(v) => v !== null && onChange?.(v)} />
      </Col>
    </Row>
  );
}

/**
 * Adds or changes the linkage of one motion or daylight sensor of a map: the group of its gateway it drives,
 * the level on detection, the level after the hold time (0 off), and the daylight above which it does not
 * switch on. One linkage per sensor: a sensor that has one is changed, not added again.
 */
export function LinkageFormModal({
  open,
  editing,
  sensors,
  groups,
  linked,
  onClose,
}: {
  open: boolean;
  editing: SensorLinkageView | undefined;
  sensors: readonly Device[];
  groups: readonly GroupView[];
  /** Sensors that have a linkage already. */
  linked: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveLinkage();
  const sensorId = Form.useWatch('sensorId', form);
  const limitDaylight = Form.useWatch('limitDaylight', form);
  const sensor = sensors.find((s) => s.id === sensorId);
  const ownGroups = useMemo(() => groupsForSensor(groups, sensor), [groups, sensor]);

  useEffect(() => {
    if (!open) return;
    const draft = linkageDraft(editing);
    form.resetFields();
    form.setFieldsValue({
      sensorId: draft.sensorId,
      groupId: draft.groupId,
      onDetectPercent: draft.onDetectPercent ?? 100,
      onClearPercent: draft.onClearPercent ?? 0,
      holdS: draft.holdS ?? 60,
      limitDaylight: draft.lux !== null && draft.lux !== undefined,
      lux: draft.lux ?? DEFAULT_LUX,
    });
  }, [open, editing, form]);

  const pickSensor = (id: string) => {
    const draft = linkageDraft(
      undefined,
      sensors.find((s) => s.id === id),
      groups,
    );
    form.setFieldsValue({ groupId: draft.groupId });
  };

  const submit = async () => {
    const values = await form.validateFields();
    if (!values.sensorId || !values.groupId) return;
    const saved = await save.mutateAsync({
      sensorId: values.sensorId,
      groupId: values.groupId,
      onDetectPercent: values.onDetectPercent,
      onClearPercent: values.onClearPercent,
      holdS: snapHold(values.holdS),
      lux: values.limitDaylight ? values.lux : null,
    });
    void message.success(t('automation.linkage.saved', { sensor: saved.sensorName, group: saved.groupName }));
    onClose();
  };

  const { detect, clear, hold, lux } = LINKAGE_RANGES;
  return (
    <FormModal
      open={open}
      title={editing ? t('automation.linkage.editTitle', { name: editing.sensorName }) : t('automation.linkage.addTitle')}
      okText={t('groups.save')}
      confirmLoading={save.isPending}
      onSubmit={submit}
      onCancel={onClose}
      width={560}
      data-testid="linkage-modal"
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="sensorId"
          label={t('automation.linkage.sensor')}
          rules={[{ required: true, message: t('automation.linkage.sensorRequired') }]}
        >
          <Select
            disabled={Boolean(editing)}
            showSearch
            optionFilterProp="name"
            placeholder={t('automation.linkage.sensorPlaceholder')}
            onChange={pickSensor}
            options={sensors.map((s) => ({
              value: s.id,
              name: s.name,
              disabled: !editing && linked.has(s.id),
              label: (
                <span>
                  {s.name}{' '}
                  <Tag bordered={false} style={{ marginInlineStart: 4 }}>
                    {t(`automation.linkage.kind.${linkageSensorKind(s.type) ?? 'motion'}`)}
                  </Tag>
                  {!editing && linked.has(s.id) && <span style={{ opacity: 0.7 }}>{t('automation.linkage.hasOne')}</span>}
                </span>
              ),
            }))}
            data-testid="linkage-sensor"
          />
        </Form.Item>
        <Form.Item
          name="groupId"
          label={t('automation.linkage.group')}
          help={sensor && ownGroups.length === 0 ? t('automation.linkage.noGroups', { gateway: sensor.gatewayName }) : undefined}
          validateStatus={sensor && ownGroups.length === 0 ? 'warning' : undefined}
          rules={[{ required: true, message: t('automation.linkage.groupRequired') }]}
        >
          <Select
            disabled={!sensor}
            placeholder={sensor ? t('automation.linkage.groupPlaceholder') : t('automation.linkage.sensorFirst')}
            options={ownGroups.map((g) => ({ value: g.id, label: g.name }))}
            data-testid="linkage-group"
          />
        </Form.Item>
        <Form.Item name="onDetectPercent" label={t('automation.linkage.detect')} extra={t('automation.linkage.detectHint')}>
          <PercentField min={detect.min} max={detect.max} testId="linkage-detect" />
        </Form.Item>
        <Form.Item name="onClearPercent" label={t('automation.linkage.clear')} extra={t('automation.linkage.clearHint')}>
          <PercentField min={clear.min} max={clear.max} testId="linkage-clear" />
        </Form.Item>
        <Row gutter={24}>
          <Col xs={24} sm={10}>
            <Form.Item
              name="holdS"
              label={t('automation.linkage.hold')}
              extra={t('automation.linkage.holdHint', { min: hold.min, max: hold.max, step: hold.step })}
              normalize={(v: number | null) => (v === null ? hold.min : v)}
            >
              <InputNumber
                min={hold.min}
                max={hold.max}
                step={hold.step}
                precision={0}
                addonAfter={t('automation.linkage.secondsUnit')}
                style={{ width: '100%' }}
                onBlur={() => form.setFieldsValue({ holdS: snapHold(form.getFieldValue('holdS') as number) })}
                data-testid="linkage-hold"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={14}>
            <Form.Item label={t('automation.linkage.daylight')} extra={t('automation.linkage.daylightHint')} style={{ marginBottom: 0 }}>
              <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                <Form.Item name="limitDaylight" valuePropName="checked" noStyle>
                  <Switch
                    checkedChildren={t('automation.linkage.belowOn')}
                    unCheckedChildren={t('automation.linkage.always')}
                    data-testid="linkage-daylight-switch"
                  />
                </Form.Item>
                <Form.Item name="lux" noStyle>
                  <InputNumber
                    min={lux.min}
                    max={lux.max}
                    step={50}
                    precision={0}
                    disabled={!limitDaylight}
                    addonAfter="lx"
                    style={{ flex: 1, minWidth: 0 }}
                    data-testid="linkage-lux"
                  />
                </Form.Item>
              </div>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
