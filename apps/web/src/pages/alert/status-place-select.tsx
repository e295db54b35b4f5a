import { useMemo, useState } from 'react';
import { Badge, Space, Tooltip, TreeSelect, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buildingStatusQuery, projectStatusQuery, useStatusTree } from '../../features/alerts/statistics-api.ts';
import { namePath, placeKey, placeOfKey, statusTree, type StatusTreeNode } from '../../features/alerts/status-tree.ts';
import type { StatisticsPlace } from '../../features/alerts/statistics-charts.ts';

interface TreeOption {
  value: string;
  title: React.ReactNode;
  label: string;
  isLeaf: boolean;
  children?: TreeOption[];
}

/** A place's name with its failures (red) and offline devices (grey) beside it. */
function NodeTitle({ node }: { node: StatusTreeNode }) {
  const { t } = useTranslation();
  const { devices, failure, offline, openAlerts } = node.counts;
  const summary = [
    t('alertStats.counts.devices', { count: devices }),
    t('alertStats.counts.failure', { count: failure }),
    t('alertStats.counts.offline', { count: offline }),
    t('alertStats.counts.openAlerts', { count: openAlerts }),
  ].join(' · ');
  return (
    <Tooltip title={summary} placement="right">
      <Space size={6} data-testid={`place-${node.key}`}>
        <span>{node.name}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {devices}
        </Typography.Text>
        <Badge count={failure} size="small" overflowCount={999} />
        <Badge count={offline} size="small" overflowCount={999} color="#8c8c8c" />
      </Space>
    </Tooltip>
  );
}

/**
 * The project > building > map selector of the statistics, read level by level from the status calls so
 * each place shows how many of its devices fail or are offline before it is chosen.
 */
export function StatusPlaceSelect({
  value,
  fallbackLabel,
  onChange,
}: {
  value: StatisticsPlace | undefined;
  /** The chosen place's name while the tree has not read its level yet (a project opened by default). */
  fallbackLabel?: string;
  onChange(place: StatisticsPlace): void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [openedProjects, setOpenedProjects] = useState<string[]>([]);
  const [openedBuildings, setOpenedBuildings] = useState<Array<{ projectId: string; buildId: string }>>([]);
  const { account, projects, buildings } = useStatusTree(openedProjects, openedBuildings);

  const nodes = useMemo(() => {
    const byProject = new Map(openedProjects.flatMap((id, i) => (projects[i]?.data ? [[id, projects[i].data] as const] : [])));
    const byBuilding = new Map(
      openedBuildings.flatMap(({ buildId }, i) => (buildings[i]?.data ? [[buildId, buildings[i].data] as const] : [])),
    );
    return statusTree(account.data, byProject, byBuilding);
  }, [account.data, projects, buildings, openedProjects, openedBuildings]);

  // The label shown once chosen is the whole path, so a map is told from another building's map of that name.
  const toOption = (node: StatusTreeNode, above: string[]): TreeOption => ({
    value: node.key,
    title: <NodeTitle node={node} />,
    label: [...above, node.name].join(' / '),
    isLeaf: node.isLeaf,
    children: node.children?.map((child) => toOption(child, [...above, node.name])),
  });

  const loadData = async ({ value: key }: { value?: string | number }) => {
    const place = placeOfKey(String(key));
    if (!place) return;
    if (place.buildId) {
      const opened = { projectId: place.projectId, buildId: place.buildId };
      await client.fetchQuery(buildingStatusQuery(opened.projectId, opened.buildId));
      setOpenedBuildings((current) => (current.some((b) => b.buildId === opened.buildId) ? current : [...current, opened]));
    } else if (!place.mapId) {
      await client.fetchQuery(projectStatusQuery(place.projectId));
      setOpenedProjects((current) => (current.includes(place.projectId) ? current : [...current, place.projectId]));
    }
  };

  const key = value && placeKey(value);
  const label = key ? (namePath(nodes, key)?.join(' / ') ?? fallbackLabel ?? '') : '';
  return (
    <TreeSelect
      style={{ width: 320 }}
      popupMatchSelectWidth={380}
      labelInValue
      value={key ? { value: key, label } : undefined}
      treeData={nodes.map((node) => toOption(node, []))}
      loadData={loadData}
      treeNodeLabelProp="label"
      loading={account.isLoading}
      placeholder={t('alertStats.placePlaceholder')}
      aria-label={t('alertStats.place')}
      onChange={(next: { value: string; label?: React.ReactNode } | undefined) => {
        const place = next && placeOfKey(next.value);
        if (place) onChange(place);
      }}
      data-testid="stats-place"
    />
  );
}
