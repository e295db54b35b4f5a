import { useEffect, useMemo, useState } from 'react';
import { Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProjectTree } from '@lumigrid/contract/browser';
import { useProjectTree, WHOLE_TREE } from './api.ts';
import { createCurrentMapStore } from './current-map.ts';
import { firstMapOf, initialMapPath, withPaths } from './tree.ts';

/**
 * The current project of the client session (spec section 3), shared with the device pages: it opens on the
 * project they remember (or the one a link names), and choosing another one here moves their map to the new
 * project's first map.
 */
export function useCurrentProject(initialProjectId?: string) {
  const store = useMemo(() => createCurrentMapStore(), []);
  const tree = useProjectTree(WHOLE_TREE);
  const [chosen, setChosen] = useState<string | undefined>(initialProjectId);
  const projectId = useMemo(() => {
    if (!tree.data) return undefined;
    if (chosen && tree.data.projects.some((p) => p.id === chosen)) return chosen;
    return rememberedProject(tree.data, store.read());
  }, [tree.data, chosen, store]);

  useEffect(() => {
    if (!projectId || !tree.data) return;
    const remembered = store.read();
    if (remembered.projectId === projectId && remembered.path?.[0] === projectId) return;
    const project = tree.data.projects.find((p) => p.id === projectId);
    store.remember((project && firstMapOf(project)) ?? [projectId]);
  }, [projectId, tree.data, store]);

  return { projectId, setProjectId: setChosen, tree };
}

/** The remembered project when it still exists; else the project of the map the device pages would open. */
function rememberedProject(tree: ProjectTree, remembered: { path?: string[]; projectId?: string }): string | undefined {
  if (remembered.projectId && tree.projects.some((p) => p.id === remembered.projectId)) return remembered.projectId;
  return initialMapPath(tree, remembered)?.[0] ?? tree.projects.find((p) => p.isDefault)?.id ?? tree.projects[0]?.id;
}

interface ProjectSelectProps {
  tree: ProjectTree | undefined;
  value: string | undefined;
  onChange(projectId: string): void;
  disabled?: boolean;
}

/** A project picker: every project of the account, sub-projects labelled with their parents. */
export function ProjectSelect({ tree, value, onChange, disabled }: ProjectSelectProps) {
  const { t } = useTranslation();
  const options = useMemo(
    () => (tree ? withPaths(tree.projects).map(({ item, path }) => ({ value: item.id, label: path.join(' / ') })) : []),
    [tree],
  );
  return (
    <Select
      style={{ minWidth: 220, maxWidth: 360 }}
      showSearch
      optionFilterProp="label"
      options={options}
      value={value}
      disabled={disabled}
      loading={!tree}
      placeholder={t('scenes.projectPlaceholder')}
      aria-label={t('scenes.project')}
      onChange={onChange}
      data-testid="scene-project"
    />
  );
}

/** The project a page shows, chosen in the page's header: the picker with its label before it. */
export function HeaderProjectSelect({ label, ...select }: ProjectSelectProps & { label: string }) {
  return (
    <Space>
      <Typography.Text>{label}</Typography.Text>
      <ProjectSelect {...select} />
    </Space>
  );
}
