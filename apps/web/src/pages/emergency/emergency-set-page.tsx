import { Card } from 'antd';
import { PageContainer } from '../../components/page-container.tsx';
import { PageTabs } from '../../components/page-tabs.tsx';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { userMay } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { EmergencyMapTab } from './emergency-map-tab.tsx';
import { TaskTable } from './task-table.tsx';

type SetTab = 'tasks' | 'map';

/**
 * /emergency/set: the tab pair of spec section 2, detection management (the test tasks) and the emergency
 * device map, for the current project. The tab is in the query (?tab=map), so a link or a reload keeps it.
 */
export default function EmergencySetPage() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const [params, setParams] = useSearchParams();
  const tab: SetTab = params.get('tab') === 'map' ? 'map' : 'tasks';
  const { projectId, setProjectId, tree } = useCurrentProject(params.get('p') ?? undefined);

  return (
    <PageContainer
      title={t('emergency.setTitle')}
      content={t(tab === 'map' ? 'emergency.mapHint' : 'emergency.setHint')}
      tabs={
        <PageTabs
          activeKey={tab}
          items={[
            { key: 'tasks', tab: <span data-testid="emergency-tab-tasks">{t('emergency.tabs.tasks')}</span> },
            { key: 'map', tab: <span data-testid="emergency-tab-map">{t('emergency.tabs.map')}</span> },
          ]}
          onChange={(key) => setParams(key === 'map' ? { tab: 'map' } : {}, { replace: true })}
        />
      }
      extra={<HeaderProjectSelect label={t('emergency.field.project')} tree={tree.data} value={projectId} onChange={setProjectId} />}
    >
      {tab === 'tasks' ? (
        <TaskTable projectId={projectId} editable={editable} />
      ) : (
        <Card variant="borderless" styles={{ body: { padding: 16 } }}>
          <EmergencyMapTab key={projectId} projectId={projectId} />
        </Card>
      )}
    </PageContainer>
  );
}
