import { useState } from 'react';
import { DatePicker, Segmented, Space, Typography } from 'antd';
import { ProCard, ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { EnergyRecord, EnergyRecordBody } from '@lumigrid/contract/browser';
import { useCurrentProject } from '../../features/projects/project-select.tsx';
import { EnergyPlaceSelect } from '../../features/energy/energy-place-select.tsx';
import { energyApi, useEnergyRecords } from '../../features/energy/api.ts';
import type { EnergyPlace } from '../../features/energy/energy-charts.ts';
import { useDownload } from '../../api/download.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { DownloadButton } from '../../components/download-button.tsx';

const DAY = 'YYYY-MM-DD';
type RecordUnit = EnergyRecordBody['unit'];
const RECORD_UNITS: readonly RecordUnit[] = ['day', 'month'];

/** kWh to the Wh, as the server counts them. */
const kwh = (value: number) => value.toLocaleString(undefined, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/**
 * /energy/detail (spec section 2, energy list): the energy records of a project, building or map (one row
 * per map per day or month) over a date range, paged, and the same records as the energy report workbook.
 */
export default function EnergyDetailPage() {
  const { t } = useTranslation();
  const { projectId: currentProjectId, tree } = useCurrentProject();
  const [chosen, setChosen] = useState<EnergyPlace>();
  const [range, setRange] = useState(() => ({ from: dayjs().startOf('month').format(DAY), to: dayjs().format(DAY) }));
  const [unit, setUnit] = useState<RecordUnit>('day');
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });

  const place = chosen ?? (currentProjectId ? { projectId: currentProjectId } : undefined);
  const filters = place && { ...place, ...range, unit };
  const records = useEnergyRecords(filters && { ...filters, ...paging });
  const report = useDownload(() => energyApi.report(filters!, `${t('energy.reportFile')}.xlsx`));
  const firstPage = () => setPaging((current) => ({ ...current, page: 1 }));

  const columns: ProColumns<EnergyRecord>[] = [
    { title: t(`energy.field.${unit}`), dataIndex: 'dateTimeStr', width: 120 },
    { title: t('energy.field.project'), dataIndex: 'projectName', width: 160, ellipsis: true },
    { title: t('energy.field.building'), dataIndex: 'buildName', width: 160, ellipsis: true },
    { title: t('energy.field.map'), dataIndex: 'mapName', width: 160, ellipsis: true },
    { title: t('energy.field.used'), dataIndex: 'powerActualAll', width: 150, align: 'right', render: (_, row) => kwh(row.powerActualAll) },
    { title: t('energy.field.saved'), dataIndex: 'savePower', width: 150, align: 'right', render: (_, row) => kwh(row.savePower) },
    {
      title: t('energy.field.rate'),
      dataIndex: 'rate',
      width: 130,
      align: 'right',
      render: (_, row) => (row.rate === null ? '-' : `${row.rate.toFixed(2)} %`),
    },
  ];

  return (
    <PageContainer title={t('energy.detailTitle')} content={t('energy.detailHint')}>
      <ProCard bordered style={{ marginBottom: 16 }}>
        <Space wrap size="middle">
          <EnergyPlaceSelect
            place={place}
            width={300}
            onChange={(next) => {
              if (next) setChosen(next);
              firstPage();
            }}
          />
          <Space size="small">
            <Typography.Text>{t('energy.range')}</Typography.Text>
            <DatePicker.RangePicker
              allowClear={false}
              value={[dayjs(range.from), dayjs(range.to)]}
              disabledDate={(day) => day.isAfter(dayjs(), 'day')}
              onChange={(days) => {
                if (!days?.[0] || !days[1]) return;
                setRange({ from: days[0].format(DAY), to: days[1].format(DAY) });
                firstPage();
              }}
              data-testid="energy-range"
            />
          </Space>
          <Segmented<RecordUnit>
            value={unit}
            onChange={(next) => {
              setUnit(next);
              firstPage();
            }}
            options={RECORD_UNITS.map((value) => ({ value, label: t(`energy.rowPer.${value}`) }))}
            data-testid="energy-unit"
          />
        </Space>
      </ProCard>
      <ProTable<EnergyRecord>
        rowKey={(row) => `${row.mapId}-${row.dateTimeStr}`}
        columns={columns}
        dataSource={records.data?.list ?? []}
        loading={(records.isFetching && !records.data) || tree.isLoading}
        locale={{ emptyText: <EmptyHint text={t('energy.noRecords')} /> }}
        cardBordered
        search={false}
        scroll={{ x: 1030 }}
        onRow={(row) => ({ 'data-testid': `energy-record-${row.mapName}-${row.dateTimeStr}` }) as React.HTMLAttributes<HTMLElement>}
        headerTitle={t('energy.recordCount', { count: records.data?.total ?? 0 })}
        toolBarRender={() => [
          <DownloadButton key="report" type="primary" disabled={!filters} data-testid="energy-report" download={report}>
            {t('energy.report')}
          </DownloadButton>,
        ]}
        options={{ reload: () => void records.refetch(), density: true, setting: false, fullScreen: false }}
        pagination={tablePaging(paging, setPaging, records.data?.total ?? 0)}
      />
    </PageContainer>
  );
}
