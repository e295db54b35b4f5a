import { Col, Form, InputNumber, Row, Select, Switch, Typography, type ColProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBoot } from '../../app/boot.tsx';
import { fieldProblem, paramLabelKey, rangeHint, type ParamField } from './param-fields.ts';

/**
 * One parameter in a form's row: a number with its range, a mode, an on/off flag, or one number per channel,
 * each checked as the server checks it (the contract's table), with the same localised message beside it.
 */
export function ParamFieldCol({
  field,
  deviceType,
  path = [],
  col,
  disabled,
  optional,
  testIdPrefix,
}: {
  field: ParamField;
  /** The type whose table checks the value; none chosen yet, nothing is checked. */
  deviceType: number | undefined;
  /** Where the form keeps the parameters; at its top by default. */
  path?: string[];
  col: ColProps;
  disabled?: boolean;
  /** A mode may be left unset (a parameter set leaves it out). */
  optional?: boolean;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const { lang } = useBoot();
  const check = (value: unknown) => {
    const problem = deviceType === undefined ? undefined : fieldProblem(deviceType, field.name, value, lang);
    if (problem) throw new Error(problem);
  };
  const { input } = field;
  const testId = `${testIdPrefix}-${field.name}`;

  if (input.kind === 'perChannel') {
    return (
      <Col xs={24}>
        <Typography.Text strong>{t(paramLabelKey(field.name))}</Typography.Text>
        <Row gutter={12} style={{ marginTop: 8 }}>
          {Array.from({ length: input.channels }, (_, i) => (
            <Col xs={12} md={6} key={i}>
              <Form.Item
                name={[...path, field.name, i]}
                label={t('deviceConfig.channel', { n: i + 1 })}
                // One channel's count checked alone, as the first of the list.
                rules={[{ validator: async (_r: unknown, v: unknown) => check(v === undefined || v === null ? v : [v]) }]}
              >
                <InputNumber
                  style={{ width: '100%' }}
                  disabled={disabled}
                  placeholder={rangeHint(input.rule)}
                  data-testid={`${testId}-${i}`}
                />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Col>
    );
  }
  return (
    <Col {...col}>
      <Form.Item
        name={[...path, field.name]}
        label={t(paramLabelKey(field.name))}
        rules={[{ validator: async (_r: unknown, value: unknown) => check(value) }]}
        valuePropName={input.kind === 'flag' ? 'checked' : 'value'}
        extra={input.kind === 'number' ? rangeHint(input.rule) : undefined}
      >
        {input.kind === 'number' ? (
          <InputNumber
            style={{ width: '100%' }}
            disabled={disabled}
            placeholder={rangeHint(input.rule)}
            addonAfter={input.rule.unit || undefined}
            data-testid={testId}
          />
        ) : input.kind === 'mode' ? (
          <Select
            allowClear={optional}
            disabled={disabled}
            options={input.choices.map((c) => ({ value: c, label: t(`deviceConfig.mode.${c}`) }))}
            data-testid={testId}
          />
        ) : (
          <Switch
            disabled={disabled}
            checkedChildren={t('deviceConfig.flag.on')}
            unCheckedChildren={t('deviceConfig.flag.off')}
            data-testid={testId}
          />
        )}
      </Form.Item>
    </Col>
  );
}
