import { Cascader } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProjectTree, WHOLE_TREE } from './api.ts';
import { mapPathOptions } from './tree.ts';

export interface MapPathSelectProps {
  /** project > building > map ids. */
  value?: string[];
  onChange?(value: string[]): void;
  /** Let a project or a building be chosen on its own (for filters); a dialog needs a map. */
  partial?: boolean;
  id?: string;
  placeholder?: string;
  /** The name of a selector that no form label points at (its id is not given). */
  label?: string;
}

/** The project > building > map selector of the device map, for forms and filters. */
export function MapPathSelect({ value, onChange, partial = false, id, placeholder, label }: MapPathSelectProps) {
  const { t } = useTranslation();
  const tree = useProjectTree(WHOLE_TREE);
  return (
    <Cascader
      id={id}
      aria-label={label}
      style={{ width: '100%' }}
      options={mapPathOptions(tree.data)}
      value={value}
      changeOnSelect={partial}
      allowClear={partial}
      showSearch
      loading={tree.isLoading}
      placeholder={placeholder ?? t('gateway.field.place')}
      onChange={(next) => onChange?.((next ?? []).map(String))}
    />
  );
}
