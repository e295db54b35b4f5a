import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { paramRules, type DeviceParams } from '@lumigrid/contract/browser';
import { paramLabelKey } from '../device-config/param-fields.ts';

/** One parameter's value as a person reads it: the number with its unit, the mode's name, on/off. */
export function useParamValueText() {
  const { t } = useTranslation();
  return (typeCode: number, name: string, value: DeviceParams[string]): string => {
    const rule = paramRules(typeCode)?.[name];
    if (typeof value === 'boolean') return t(value ? 'deviceConfig.flag.on' : 'deviceConfig.flag.off');
    if (Array.isArray(value)) return value.join(' / ');
    if (typeof value === 'string') return rule?.kind === 'choice' ? t(`deviceConfig.mode.${value as 'independent' | 'linkage'}`) : value;
    const unit = rule?.kind === 'range' ? rule.unit : '';
    return unit ? `${value} ${unit}` : String(value);
  };
}

/** A template's parameters as compact tags, in the order of the type's parameter table. */
export function ParamValueTags({ typeCode, params }: { typeCode: number; params: DeviceParams }) {
  const { t } = useTranslation();
  const text = useParamValueText();
  const order = Object.keys(paramRules(typeCode) ?? {});
  const names = Object.keys(params).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return (
    <Space size={[4, 4]} wrap>
      {names.map((name) => (
        <Tag key={name} bordered={false} color="blue">
          {t(paramLabelKey(name))}: {text(typeCode, name, params[name]!)}
        </Tag>
      ))}
    </Space>
  );
}
