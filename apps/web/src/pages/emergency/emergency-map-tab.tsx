import { useMemo, useState } from 'react';
import { Button, Cascader, Descriptions, Empty, List, Space, Spin, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EMERGENCY_CATEGORY_COLOURS, emergencyDestination, type EmergencyMapLight } from '@lumigrid/contract/browser';
import { useRealtime } from '../../app/realtime-provider.tsx';
import { FloorPlanMap } from '../../components/floor-plan-map.tsx';
import { applyEmergencyMessage, useEmergencyMap, useEmergencyTree } from '../../features/emergency/api.ts';
import { countByCategory } from '../../features/emergency/emergency-markers.ts';
import { EmergencyLegend, EmergencyMarkerLayer } from '../../features/emergency/emergency-plan.tsx';
import { firstPlaceWithLights } from '../../features/emergency/task-form.ts';
import { stateText } from '../../features/emergency/texts.ts';
import { useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { useSiteTime, type TimeFormatter } from '../../features/projects/site-time.ts';
import { EmptyLead } from '../../components/empty-hint.tsx';

/**
 * The emergency device map: every emergency light of a map of the project on its floor plan, coloured by its
 * emergency state (charging, fully charged, testing, failed, battery depleted, offline), with the legend. A test
 * under way changes the colours live (the map's emergency topic); a click shows the light's state, battery,
 * last tests and whether a test is overdue.
 */
export function EmergencyMapTab({ projectId }: { projectId: string | undefined }) {
  const { t } = useTranslation();
  const { time } = useSiteTime({ projectId });
  const queryClient = useQueryClient();
  const tree = useEmergencyTree(projectId, '0');
  const projects = useProjectTree(WHOLE_TREE);
  const [chosen, setChosen] = useState<[string, string]>();
  const [selectedId, setSelectedId] = useState<string>();

  const place = useMemo((): [string, string] | undefined => {
    const builds = tree.data?.builds ?? [];
    if (chosen && builds.some((b) => b.id === chosen[0] && b.maps.some((m) => m.id === chosen[1]))) return chosen;
    const first = firstPlaceWithLights(tree.data);
    if (first.buildId && first.mapId) return [first.buildId, first.mapId];
    const build = builds.find((b) => b.maps.length);
    return build ? [build.id, build.maps[0]!.id] : undefined;
  }, [tree.data, chosen]);
  const mapId = place?.[1];
  const image = projects.data?.projects
    .find((p) => p.id === projectId)
    ?.builds.find((b) => b.id === place?.[0])
    ?.maps.find((m) => m.id === mapId)?.image;
  const options = useMemo(
    () =>
      (tree.data?.builds ?? []).map((b) => ({
        value: b.id,
        label: b.name,
        disabled: b.maps.length === 0,
        children: b.maps.map((m) => ({ value: m.id, label: m.name })),
      })),
    [tree.data],
  );

  const state = useEmergencyMap(mapId);
  useRealtime(mapId ? emergencyDestination(mapId) : undefined, (payload) => {
    if (mapId) applyEmergencyMessage(queryClient, mapId, payload);
  });
  const lights = state.data?.mapId === mapId ? (state.data?.lights ?? []) : [];
  const counts = useMemo(() => countByCategory(lights), [lights]);
  const selected = lights.find((l) => l.deviceId === selectedId);

  if (tree.isLoading || projects.isLoading) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
  if (!place) return <Empty description={t('emergency.map.noMaps')} style={{ margin: '96px 0' }} />;

  return (
    <div>
      <Space wrap style={{ marginBottom: 16 }}>
        <Typography.Text>{t('emergency.map.select')}</Typography.Text>
        <Cascader
          style={{ width: 360, maxWidth: '70vw' }}
          options={options}
          value={place}
          allowClear={false}
          aria-label={t('emergency.map.select')}
          expandTrigger="hover"
          onChange={(value) => {
            if (Array.isArray(value) && value.length === 2) {
              setChosen(value.map(String) as [string, string]);
              setSelectedId(undefined);
            }
          }}
          data-testid="emergency-map-selector"
        />
        <Typography.Text type="secondary" data-testid="emergency-map-count">
          {t('emergency.map.count', { count: lights.length })}
        </Typography.Text>
      </Space>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          {image ? (
            <FloorPlanMap
              imageUrl={image}
              opacity={1}
              loadingText={t('deviceMap.loading')}
              errorText={t('deviceMap.failed')}
              fitText={t('deviceMap.fit')}
              style={{ height: 'calc(100vh - 360px)', minHeight: 420 }}
            >
              {(plan) => (
                <EmergencyMarkerLayer
                  plan={plan}
                  lights={lights}
                  selectedId={selectedId}
                  onSelect={setSelectedId}
                  onDeselect={() => setSelectedId(undefined)}
                />
              )}
            </FloorPlanMap>
          ) : (
            <EmptyLead
              description={t('emergency.map.noImage')}
              to={projectId && `/project/detail?id=${projectId}`}
              action={t('deviceMap.goUpload')}
              style={{ padding: '96px 0', background: '#fafafa', borderRadius: 8 }}
            />
          )}
          <EmergencyLegend counts={counts} />
        </div>
        <div style={{ width: 300, flex: 'none' }}>
          {selected ? (
            <LightCard light={selected} time={time} onClose={() => setSelectedId(undefined)} />
          ) : (
            <List
              size="small"
              bordered
              header={<Typography.Text strong>{t('emergency.map.lights')}</Typography.Text>}
              dataSource={lights}
              locale={{ emptyText: t('emergency.map.noLights') }}
              style={{ maxHeight: 'calc(100vh - 360px)', overflow: 'auto', background: '#fff' }}
              renderItem={(light) => (
                <List.Item
                  style={{ cursor: 'pointer' }}
                  onClick={() => setSelectedId(light.deviceId)}
                  data-testid={`emergency-light-${light.name}`}
                  data-category={light.category}
                >
                  <Space size={6}>
                    <span
                      aria-hidden
                      style={{
                        width: 10,
                        height: 10,
                        borderRadius: 5,
                        display: 'inline-block',
                        background: EMERGENCY_CATEGORY_COLOURS[light.category],
                      }}
                    />
                    <span>{light.name}</span>
                  </Space>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`emergency.category.${light.category}`)}
                    {light.x === null || light.y === null ? ` · ${t('emergency.map.notPlaced')}` : ''}
                  </Typography.Text>
                </List.Item>
              )}
            />
          )}
        </div>
      </div>
    </div>
  );
}

/** One light: its emergency state, battery and tests, overdue ones in red (EN 50172: monthly and yearly). */
function LightCard({ light, time, onClose }: { light: EmergencyMapLight; time: TimeFormatter['time']; onClose: () => void }) {
  const { t } = useTranslation();
  const lastTest = (test: EmergencyMapLight['lastFunctionTest'], overdue: boolean) => (
    <Space direction="vertical" size={0}>
      {test ? (
        <span>
          {time(test.at)}{' '}
          <Tag color={test.passed ? 'green' : 'red'} bordered={false}>
            {t(test.passed ? 'emergency.result.pass' : 'emergency.result.failed')}
          </Tag>
        </span>
      ) : (
        <Typography.Text type="secondary">{t('emergency.never')}</Typography.Text>
      )}
      {overdue && <Typography.Text type="danger">{t('emergency.compliance.overdue')}</Typography.Text>}
    </Space>
  );
  return (
    <div style={{ background: '#fff', border: '1px solid #f0f0f0', borderRadius: 8, padding: 12 }} data-testid="emergency-light-card">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>{light.name}</Typography.Text>
        <Button type="link" size="small" onClick={onClose}>
          {t('emergency.map.allLights')}
        </Button>
      </Space>
      <Descriptions column={1} size="small" styles={{ label: { width: 110 } }}>
        <Descriptions.Item label={t('emergency.field.addr')}>{light.addr}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.field.category')}>
          <Tag color={EMERGENCY_CATEGORY_COLOURS[light.category]} data-testid="emergency-light-category">
            {t(`emergency.category.${light.category}`)}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('emergency.field.state')}>{stateText(t, light.state)}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.field.battery')}>{light.battery === null ? '—' : `${light.battery}%`}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.field.lastFunction')}>
          {lastTest(light.lastFunctionTest, light.functionOverdue)}
        </Descriptions.Item>
        <Descriptions.Item label={t('emergency.field.lastLife')}>{lastTest(light.lastLifeTest, light.lifeOverdue)}</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
