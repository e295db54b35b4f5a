import { useEffect } from 'react';
import { Form, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMapGroups } from '../groups/api.ts';

/**
 * The device list's group filter: the groups (zones) of the map chosen in the same search form
 * (zone/v1/list/{mapId}). Groups live on one map, so it stays disabled until a map is chosen, and clears
 * itself when the map changes.
 */
export function GroupFilterSelect(props: {
  form: FormInstance;
  /** The form field holding the place path [projectId, buildId, mapId]. */
  placeField: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  /** The id the search form's label points at. */
  id?: string;
}) {
  const { t } = useTranslation();
  const { form, placeField, value, onChange } = props;
  const place = Form.useWatch(placeField, form) as string[] | undefined;
  const mapId = place && place.length >= 3 ? place[2] : undefined;
  const groups = useMapGroups(mapId);
  useEffect(() => {
    if (value !== undefined && (!mapId || (groups.data && !groups.data.some((g) => g.id === value)))) onChange?.(undefined);
  }, [mapId, groups.data, value, onChange]);
  return (
    <Select
      id={props.id}
      data-testid="device-list-group"
      allowClear
      showSearch
      optionFilterProp="label"
      disabled={!mapId}
      loading={groups.isFetching && !groups.data}
      placeholder={mapId ? undefined : t('deviceConfig.field.groupNeedsMap')}
      value={value}
      onChange={(next?: string) => onChange?.(next)}
      options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
    />
  );
}
