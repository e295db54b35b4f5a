import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MapPathSelect } from '../projects/map-path-select.tsx';
import { pathOfPlace, placeOfPath, type EnergyPlace } from './energy-charts.ts';

/** The project, building or map an energy page counts, with its label; `undefined` when no place is picked. */
export function EnergyPlaceSelect({
  place,
  width,
  onChange,
}: {
  place: EnergyPlace | undefined;
  width: number;
  onChange: (next: EnergyPlace | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space size="small">
      <Typography.Text>{t('energy.place')}</Typography.Text>
      <div style={{ width }} data-testid="energy-place">
        <MapPathSelect
          partial
          value={place ? pathOfPlace(place) : undefined}
          placeholder={t('energy.placePlaceholder')}
          label={t('energy.place')}
          onChange={(path) => onChange(placeOfPath(path))}
        />
      </div>
    </Space>
  );
}
