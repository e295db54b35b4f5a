import { Progress, Tooltip, Typography } from 'antd';
import type { ProColumns } from '@ant-design/pro-components';
import type { TFunction } from 'i18next';
import type { Device } from '@lumigrid/contract/browser';

/** Below this share of its lifespan left, a luminaire is due for replacement soon. */
const LOW_LIFE = 0.1;

/**
 * The device status view's remaining-life column: the library type's lifespan less the burning hours, as a
 * bar of what is left; empty for a device whose part number no library type has.
 */
export function remainingLifeColumn(t: TFunction, empty: string): ProColumns<Device> {
  return {
    title: t('library.life.column'),
    dataIndex: 'remainingLifeHours',
    search: false,
    width: 190,
    render: (_, row) => {
      if (row.remainingLifeHours === null) return <Typography.Text type="secondary">{empty}</Typography.Text>;
      const used = row.usedHours ?? 0;
      const lifespan = row.remainingLifeHours + used;
      const share = lifespan > 0 ? row.remainingLifeHours / lifespan : 0;
      return (
        <Tooltip
          title={t('library.life.tooltip', {
            type: row.libraryTypeName ?? '',
            used: Math.round(used).toLocaleString(),
            lifespan: Math.round(lifespan).toLocaleString(),
          })}
        >
          <div data-testid={`remaining-life-${row.id}`} style={{ minWidth: 150 }}>
            <Typography.Text style={{ fontSize: 12 }}>
              {t('library.hoursValue', { value: Math.round(row.remainingLifeHours).toLocaleString() })}
            </Typography.Text>
            <Progress
              aria-label={`${t('library.life.column')}: ${row.name}`}
              percent={Math.round(share * 100)}
              size="small"
              showInfo={false}
              status={share < LOW_LIFE ? 'exception' : 'normal'}
            />
          </div>
        </Tooltip>
      );
    },
  };
}
