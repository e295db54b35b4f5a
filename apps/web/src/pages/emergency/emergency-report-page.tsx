import { PageContainer } from '../../components/page-container.tsx';
import { PageTabs } from '../../components/page-tabs.tsx';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { userMay } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { ComplianceTable } from './compliance-table.tsx';
import { LogBookTable } from './log-book-table.tsx';
import { RunTable } from './run-table.tsx';

const TABS = ['records', 'logBook', 'compliance'] as const;
type ReportTab = (typeof TABS)[number];

/**
 * /emergency/report: what an inspector asks for, per project (site): the test records of every run, the log
 * book (tests, failures, repairs, acknowledgements; PDF and Excel) and the compliance view of overdue lights.
 * The tab is in the query (?tab=logBook), so a link opens it.
 */
export default function EmergencyReportPage() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  const controllable = userMay(user, 'control');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: ReportTab = TABS.find((k) => k === asked) ?? 'records';
  const { projectId, setProjectId, tree } = useCurrentProject(params.get('p') ?? undefined);

  return (
    <PageContainer
      title={t('emergency.reportTitle')}
      content={t(`emergency.reportHint.${tab}`)}
      tabs={
        <PageTabs
          activeKey={tab}
          items={TABS.map((key) => ({ key, tab: <span data-testid={`emergency-tab-${key}`}>{t(`emergency.tabs.${key}`)}</span> }))}
          onChange={(key) => setParams(key === 'records' ? {} : { tab: key }, { replace: true })}
        />
      }
      extra={<HeaderProjectSelect label={t('emergency.field.project')} tree={tree.data} value={projectId} onChange={setProjectId} />}
    >
      {tab === 'records' && <RunTable key={projectId} projectId={projectId} />}
      {tab === 'logBook' && <LogBookTable key={projectId} projectId={projectId} controllable={controllable} />}
      {tab === 'compliance' && <ComplianceTable key={projectId} projectId={projectId} />}
    </PageContainer>
  );
}
