import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Cascader, Empty, Slider, Space, Spin, Typography } from 'antd';
import { PageContainer } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS } from '@lumigrid/contract';
import { useMe } from '../../features/auth/api.ts';
import { useProjectTree, useUpdateMap, WHOLE_TREE } from '../../features/projects/api.ts';
import { canEditInstallation } from '../../features/projects/checks.ts';
import { createCurrentMapStore } from '../../features/projects/current-map.ts';
import { initialMapPath, mapPathOptions, pathExists, type MapPath } from '../../features/projects/tree.ts';
import { FloorPlanMap } from '../../components/floor-plan-map.tsx';

/**
 * The device map (/device/control): the chosen map's floor plan in Leaflet, chosen with a project >
 * building > map selector that remembers the current project across visits. Devices join with their issue.
 */
export default function DeviceControlPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const editable = canEditInstallation(user);
  const store = useMemo(() => createCurrentMapStore(), []);
  const tree = useProjectTree(WHOLE_TREE);
  const update = useUpdateMap();
  const [chosen, setChosen] = useState<MapPath>();
  const [opacity, setOpacity] = useState<number>(PROJECT_LIMITS.opacity.default);

  // The path in force: the user's choice while it exists, else what was remembered, else a sensible first map.
  // A tree cached from another page may predate a map just added there: wait for this visit's answer, or
  // the remembered map would look gone and be replaced by the default one.
  const fresh = tree.isFetchedAfterMount;
  const path = useMemo(() => {
    if (!tree.data || !fresh) return undefined;
    if (chosen && pathExists(tree.data, chosen)) return chosen;
    return initialMapPath(tree.data, store.read());
  }, [tree.data, fresh, chosen, store]);

  const project = tree.data?.projects.find((p) => p.id === path?.[0]);
  const map = project?.builds.find((b) => b.id === path?.[1])?.maps.find((m) => m.id === path?.[2]);

  useEffect(() => {
    if (path) store.remember(path);
  }, [path, store]);
  useEffect(() => {
    if (map) setOpacity(map.opacity);
  }, [map]);

  const options = useMemo(() => mapPathOptions(tree.data), [tree.data]);

  const saveOpacity = async (value: number) => {
    if (!map || value === map.opacity) return;
    await update.mutateAsync({ id: map.id, opacity: value });
    void message.success(t('map.opacitySaved'));
  };

  const body = () => {
    if (!fresh && !tree.isError) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
    if (!options.length || !path) {
      return (
        <Empty description={t('deviceMap.noMaps')} style={{ margin: '96px 0' }}>
          <Link to="/project/list">
            <Button type="primary">{t('deviceMap.goProjects')}</Button>
          </Link>
        </Empty>
      );
    }
    if (!map?.image) {
      return (
        <Empty description={t('deviceMap.noImage')} style={{ margin: '96px 0' }} data-testid="device-map-no-image">
          <Link to={`/project/detail?id=${path[0]}`}>
            <Button type="primary">{t('deviceMap.goUpload')}</Button>
          </Link>
        </Empty>
      );
    }
    return (
      <FloorPlanMap
        imageUrl={map.image}
        opacity={opacity / 100}
        loadingText={t('deviceMap.loading')}
        errorText={t('deviceMap.failed')}
        fitText={t('deviceMap.fit')}
        style={{ height: 'calc(100vh - 290px)', minHeight: 420 }}
      />
    );
  };

  return (
    <PageContainer title={t('deviceMap.title')} breadcrumbRender={false}>
      <Card variant="borderless" styles={{ body: { padding: 16 } }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: 16 }}>
          <Space>
            <Typography.Text>{t('deviceMap.select')}</Typography.Text>
            <Cascader
              style={{ width: 420, maxWidth: '70vw' }}
              options={options}
              value={path}
              allowClear={false}
              expandTrigger="hover"
              placeholder={t('deviceMap.selectPlaceholder')}
              showSearch={{ filter: (input, chain) => chain.some((option) => String(option.label).toLowerCase().includes(input.toLowerCase())) }}
              onChange={(value) => {
                if (Array.isArray(value) && value.length === 3) setChosen(value.map(String) as MapPath);
              }}
              data-testid="map-selector"
            />
          </Space>
          {map?.image && (
            <Space style={{ minWidth: 280 }}>
              <Typography.Text>{t('map.opacity')}</Typography.Text>
              <div style={{ width: 180 }} data-testid="device-map-opacity">
                <Slider
                  min={PROJECT_LIMITS.opacity.min}
                  max={PROJECT_LIMITS.opacity.max}
                  value={opacity}
                  onChange={setOpacity}
                  // Everyone may look through the plan; only editors keep the setting on the map.
                  onChangeComplete={(value) => {
                    if (editable) void saveOpacity(value).catch(() => undefined);
                  }}
                  tooltip={{ formatter: (value) => `${value ?? 0}%` }}
                />
              </div>
              <Typography.Text type="secondary">{opacity}%</Typography.Text>
            </Space>
          )}
        </div>
        {body()}
      </Card>
    </PageContainer>
  );
}
