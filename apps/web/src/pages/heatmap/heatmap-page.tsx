import { useCallback, useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Progress, Segmented, Select, Space, Spin, Statistic, Table, Typography } from 'antd';
import { ArrowLeftOutlined, BgColorsOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DEFAULT_HEAT_LEVELS, heatColorOf, type HeatRow, type HeatSensor } from '@lumigrid/contract/browser';
import { heatmapApi, useHeatmapGen, useHeatmapPage, useHeatmapSettings } from '../../features/heatmap/api.ts';
import { useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { createCurrentMapStore } from '../../features/projects/current-map.ts';
import { MapPathSelect } from '../../features/projects/map-path-select.tsx';
import { initialMapPath, pathOfMap } from '../../features/projects/tree.ts';
import { useDownload } from '../../api/download.ts';
import { FloorPlanMap } from '../../components/floor-plan-map.tsx';
import { HeatLayer, SensorDots } from './heat-layer.tsx';
import { HeatLegend } from './heat-legend.tsx';
import { LevelsDrawer } from './levels-drawer.tsx';
import { RANGE_PRESETS, presetRange, readHeatmapQuery, writeHeatmapQuery, type HeatmapQuery } from './heatmap-model.ts';
import { WeekGrid } from './week-grid.tsx';
import { EmptyLead } from '../../components/empty-hint.tsx';
import { DownloadButton } from '../../components/download-button.tsx';
import { useUserMay } from '../../components/use-user-may.ts';
import { queryTableRows } from '../../components/query-table-rows.ts';

const DAY = 'YYYY-MM-DD';
const RANKING_PAGE = 8;

/**
 * /heatmap (spec section 2: hidden from the menu, opened from the device map): how often each motion sensor
 * of a map saw someone over a range of days, as a heat layer over the floor plan in the project's colour
 * levels with a ranking beside it, or by day of week and hour of day; the rows as a workbook. The map, range
 * and view live in the query, so a link opens the same heatmap.
 */
export default function HeatmapPage() {
  const { t } = useTranslation();
  const editable = useUserMay('write');
  const [search, setSearch] = useSearchParams();
  const query = useMemo(() => readHeatmapQuery(search), [search]);
  const tree = useProjectTree(WHOLE_TREE);
  const [levelsOpen, setLevelsOpen] = useState(false);
  const [rankingPage, setRankingPage] = useState(1);

  const setQuery = (change: Partial<HeatmapQuery>) => {
    setSearch(writeHeatmapQuery({ ...query, ...change }), { replace: true });
    if (change.mapId !== undefined || change.range) setRankingPage(1);
  };

  // The map of the query, else the one the device map shows.
  const path = useMemo(() => {
    if (!tree.data) return undefined;
    if (query.mapId) return pathOfMap(tree.data, query.mapId);
    return initialMapPath(tree.data, createCurrentMapStore().read());
  }, [tree.data, query.mapId]);
  const project = tree.data?.projects.find((p) => p.id === path?.[0]);
  const map = project?.builds.find((b) => b.id === path?.[1])?.maps.find((m) => m.id === path?.[2]);
  const mapId = map?.id;

  const heat = useHeatmapGen(mapId ? { mapId, ...query.range, ...(query.sensorId ? { sensorId: query.sensorId } : {}) } : undefined);
  const ranking = useHeatmapPage(
    project && mapId ? { projectId: project.id, mapId, ...query.range, page: rankingPage, pageSize: RANKING_PAGE } : undefined,
  );
  const settings = useHeatmapSettings(project?.id);
  const levels = heat.data?.levels ?? settings.data?.levels ?? DEFAULT_HEAT_LEVELS;
  const download = useDownload(() =>
    heatmapApi.download(
      { projectId: project!.id, mapId: mapId!, ...query.range },
      `${t('heatmap.file')} ${query.range.from}_${query.range.to}.xlsx`,
    ),
  );

  const sensors = useMemo(() => heat.data?.sensors ?? [], [heat.data]);
  const colorOf = useCallback((s: HeatSensor) => (s.count > 0 ? heatColorOf(levels, s.percent) : '#bfbfbf'), [levels]);
  const tooltipOf = useCallback(
    (s: HeatSensor) => `<b>${escapeHtml(s.name)}</b><br/>${t('heatmap.sensorTooltip', { count: s.count, percent: s.percent })}`,
    [t],
  );
  const busiest = sensors[0] && sensors[0].count > 0 ? sensors[0] : undefined;

  const rankingColumns = [
    { title: '#', key: 'rank', width: 36, render: (_: unknown, _row: HeatRow, i: number) => (rankingPage - 1) * RANKING_PAGE + i + 1 },
    { title: t('heatmap.field.sensor'), dataIndex: 'name', ellipsis: true },
    { title: t('heatmap.field.count'), dataIndex: 'count', width: 64, align: 'right' as const },
    {
      title: t('heatmap.field.percent'),
      dataIndex: 'percent',
      width: 130,
      render: (_: unknown, row: HeatRow) => (
        <Progress
          aria-label={`${t('heatmap.field.percent')}: ${row.name}`}
          percent={row.percent}
          size="small"
          strokeColor={heatColorOf(levels, row.percent)}
          format={(p) => `${p}%`}
        />
      ),
    },
  ];

  const toolbar = (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: 16 }}>
      <Space>
        <Typography.Text>{t('heatmap.map')}</Typography.Text>
        <div style={{ width: 340, maxWidth: '70vw' }} data-testid="heatmap-map">
          <MapPathSelect
            value={path}
            placeholder={t('heatmap.mapPlaceholder')}
            onChange={(next) => {
              if (next.length === 3) setQuery({ mapId: next[2], sensorId: undefined });
            }}
          />
        </div>
      </Space>
      <Space>
        <Typography.Text>{t('heatmap.range')}</Typography.Text>
        <div data-testid="heatmap-range">
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(query.range.from), dayjs(query.range.to)]}
            disabledDate={(day) => day.isAfter(dayjs(), 'day')}
            presets={RANGE_PRESETS.map((preset) => {
              const r = presetRange(preset);
              return { label: t(`heatmap.preset.${preset}`), value: [dayjs(r.from), dayjs(r.to)] as [dayjs.Dayjs, dayjs.Dayjs] };
            })}
            onChange={(days) => {
              if (days?.[0] && days[1]) setQuery({ range: { from: days[0].format(DAY), to: days[1].format(DAY) } });
            }}
          />
        </div>
      </Space>
      <Segmented
        value={query.view}
        options={[
          { value: 'plan', label: t('heatmap.view.plan') },
          { value: 'week', label: t('heatmap.view.week') },
        ]}
        onChange={(view) => setQuery({ view: view as HeatmapQuery['view'] })}
        data-testid="heatmap-view"
      />
    </div>
  );

  const summary = heat.data && (
    <div style={{ display: 'flex', gap: 32, flexWrap: 'wrap', marginBottom: 16 }} data-testid="heatmap-summary">
      <Statistic title={t('heatmap.total')} value={heat.data.totalCount} />
      <Statistic title={t('heatmap.sensors')} value={sensors.length} />
      <Statistic title={t('heatmap.busiest')} value={busiest ? busiest.name : '-'} valueStyle={{ fontSize: 18 }} />
      <Statistic
        title={t('heatmap.maxCount')}
        value={heat.data.maxCount}
        suffix={t('heatmap.windows', { minutes: heat.data.windowMinutes })}
      />
    </div>
  );

  const planView = () =>
    map?.image ? (
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 'min(480px, 100%)' }}>
          <FloorPlanMap
            imageUrl={map.image}
            opacity={map.opacity / 100}
            loadingText={t('deviceMap.loading')}
            errorText={t('deviceMap.failed')}
            fitText={t('deviceMap.fit')}
            style={{ height: 'calc(100vh - 400px)', minHeight: 420 }}
          >
            {(plan) => (
              <>
                <HeatLayer plan={plan} sensors={sensors} levels={levels} />
                <SensorDots
                  plan={plan}
                  sensors={sensors}
                  colorOf={colorOf}
                  tooltipOf={tooltipOf}
                  onPick={(s) => setQuery({ view: 'week', sensorId: s.id })}
                />
              </>
            )}
          </FloorPlanMap>
          {heat.data && <HeatLegend levels={levels} maxCount={heat.data.maxCount} windowMinutes={heat.data.windowMinutes} />}
        </div>
        <Card
          size="small"
          title={t('heatmap.ranking')}
          style={{ width: 420, maxWidth: '100%', flex: 'none' }}
          data-testid="heatmap-ranking"
        >
          <Table<HeatRow>
            rowKey="deviceId"
            size="small"
            columns={rankingColumns}
            {...queryTableRows(ranking)}
            locale={{ emptyText: t('heatmap.noSensors') }}
            onRow={(row) => ({ onClick: () => setQuery({ view: 'week', sensorId: row.deviceId }), style: { cursor: 'pointer' } })}
            pagination={{
              current: rankingPage,
              pageSize: RANKING_PAGE,
              total: ranking.data?.total ?? 0,
              size: 'small',
              hideOnSinglePage: true,
              onChange: setRankingPage,
            }}
          />
        </Card>
      </div>
    ) : (
      <EmptyLead description={t('deviceMap.noImage')} to={project && `/project/detail?id=${project.id}`} action={t('deviceMap.goUpload')} />
    );

  const weekView = () => (
    <div>
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Text>{t('heatmap.weekOf')}</Typography.Text>
        <Select
          style={{ width: 280, maxWidth: 'calc(100vw - 48px)' }}
          value={query.sensorId ?? ''}
          options={[{ value: '', label: t('heatmap.allSensors') }, ...sensors.map((s) => ({ value: s.id, label: s.name }))]}
          onChange={(value) => setQuery({ sensorId: value || undefined })}
          showSearch
          optionFilterProp="label"
          data-testid="heatmap-week-sensor"
        />
        <Typography.Text type="secondary">{t('heatmap.weekHint')}</Typography.Text>
      </Space>
      {heat.data && <WeekGrid week={heat.data.week} levels={levels} label={t('heatmap.view.week')} />}
    </div>
  );

  const body = () => {
    if (tree.isLoading || (mapId && heat.isLoading)) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
    if (!map) return <Empty description={t('deviceMap.noMaps')} style={{ margin: '96px 0' }} />;
    return (
      <>
        {summary}
        {query.view === 'week' ? weekView() : planView()}
      </>
    );
  };

  return (
    <PageContainer
      title={t('heatmap.title')}
      content={t('heatmap.hint', { minutes: heat.data?.windowMinutes ?? 30 })}
      extra={
        <Space wrap>
          <Link to="/device/control" data-testid="heatmap-back">
            <Button icon={<ArrowLeftOutlined />}>{t('heatmap.back')}</Button>
          </Link>
          <Button icon={<BgColorsOutlined />} disabled={!project} onClick={() => setLevelsOpen(true)} data-testid="heatmap-levels-open">
            {t('heatmap.levels.title')}
          </Button>
          <DownloadButton disabled={!mapId} data-testid="heatmap-download" download={download}>
            {t('heatmap.download')}
          </DownloadButton>
        </Space>
      }
    >
      <Card variant="borderless" styles={{ body: { padding: 16 } }}>
        {toolbar}
        {body()}
      </Card>
      <LevelsDrawer
        open={levelsOpen}
        settings={settings.data}
        projectName={project?.name ?? ''}
        editable={editable}
        onClose={() => setLevelsOpen(false)}
      />
    </PageContainer>
  );
}

/** Sensor names go into Leaflet tooltips as HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
