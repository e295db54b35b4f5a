import { useState, type ReactNode } from 'react';
import { Card, Col, Row, Space, Statistic, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMERGENCY_LIMITS, type ComplianceRow, type ComplianceState } from '@lumigrid/contract/browser';
import { useCompliance } from '../../features/emergency/api.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { tablePaging } from '../../components/table-paging.ts';

const STATE_COLOUR: Record<ComplianceState, string> = { failed: 'red', repaired: 'orange', overdue: 'gold', compliant: 'green' };

interface HeaderCountProps {
  title: string;
  value: number;
  /** A count of lights in trouble: red while any are, green when none is. */
  problem?: boolean;
  suffix?: ReactNode;
  testid?: string;
}

/** One of the counts above the compliance table. */
function HeaderCount({ title, value, problem = false, suffix, testid }: HeaderCountProps) {
  return (
    <Col xs={12} md={6}>
      <Card variant="borderless">
        <Statistic
          title={title}
          value={value}
          valueStyle={problem ? { color: value ? '#cf1322' : '#237804' } : undefined}
          suffix={suffix}
          data-testid={testid}
        />
      </Card>
    </Col>
  );
}

/**
 * Compliance: the project's emergency lights against EN 50172's calendar, a function test every month (31
 * days) and a full-duration test every year. A light whose last test of a kind failed stays failed (awaiting
 * repair, then a retest once a repair is recorded) until a later test passes; failed lights come first, then
 * overdue ones in red, most overdue first.
 */
export function ComplianceTable({ projectId }: { projectId: string | undefined }) {
  const { t } = useTranslation();
  const { time } = useSiteTime({ projectId });
  const day = (iso: string | null) => (iso ? time(iso, 'date') : undefined);
  const [overdueOnly, setOverdueOnly] = useState(true);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const compliance = useCompliance(projectId ? { projectId, overdueOnly, ...paging } : undefined);
  const data = compliance.data;

  const due = (last: string | null, passed: boolean | null, dueAt: string | null, overdue: boolean, testid: string) => {
    const failed = passed === false;
    return (
      <Space direction="vertical" size={0} data-testid={testid} data-overdue={overdue} data-failed={failed}>
        <Typography.Text type={overdue || failed ? 'danger' : undefined} strong={overdue || failed}>
          {failed
            ? t('emergency.compliance.failedOn', { at: day(last) })
            : overdue
              ? dueAt
                ? t('emergency.compliance.overdueSince', { at: day(dueAt) })
                : t('emergency.compliance.neverTested')
              : t('emergency.compliance.dueOn', { at: day(dueAt) })}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {failed ? t('emergency.compliance.retestDue') : t('emergency.compliance.last', { at: day(last) ?? t('emergency.never') })}
        </Typography.Text>
      </Space>
    );
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <HeaderCount title={t('emergency.compliance.lights')} value={data?.lights ?? 0} />
        <HeaderCount
          title={t('emergency.compliance.failedLights')}
          value={data?.failed ?? 0}
          problem
          suffix={
            data?.failed ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('emergency.compliance.awaitingRepairCount', { count: data.awaitingRepair })}
              </Typography.Text>
            ) : undefined
          }
          testid="emergency-compliance-failed"
        />
        <HeaderCount
          title={t('emergency.compliance.functionOverdue', { days: EMERGENCY_LIMITS.functionDueDays })}
          value={data?.functionOverdue ?? 0}
          problem
          testid="emergency-compliance-function"
        />
        <HeaderCount
          title={t('emergency.compliance.lifeOverdue', { days: EMERGENCY_LIMITS.lifeDueDays })}
          value={data?.lifeOverdue ?? 0}
          problem
          testid="emergency-compliance-life"
        />
      </Row>
      <Card
        variant="borderless"
        title={t('emergency.compliance.title')}
        extra={
          <Space>
            <Typography.Text>{t('emergency.compliance.overdueOnly')}</Typography.Text>
            <Switch
              checked={overdueOnly}
              onChange={(checked) => {
                setOverdueOnly(checked);
                setPaging((p) => ({ ...p, page: 1 }));
              }}
              data-testid="emergency-compliance-overdue-only"
            />
          </Space>
        }
      >
        <Table<ComplianceRow>
          rowKey="deviceId"
          size="middle"
          scroll={{ x: 900 }}
          loading={compliance.isFetching && !data}
          dataSource={data?.list ?? []}
          locale={{ emptyText: <EmptyHint text={t(overdueOnly ? 'emergency.compliance.allGood' : 'emergency.compliance.noLights')} /> }}
          onRow={(row) => ({ 'data-testid': `emergency-compliance-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t('emergency.logBook.luminaire'),
              dataIndex: 'name',
              render: (_, row) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text type={row.state === 'compliant' ? undefined : 'danger'}>{row.name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {row.addr}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('emergency.compliance.stateTitle'),
              dataIndex: 'state',
              render: (_, row) => (
                <Space direction="vertical" size={0} data-testid={`emergency-compliance-state-${row.name}`} data-state={row.state}>
                  <Tag color={STATE_COLOUR[row.state]}>{t(`emergency.compliance.state.${row.state}`)}</Tag>
                  {row.repairedAt && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('emergency.compliance.repairedOn', { at: day(row.repairedAt) })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t('emergency.field.place'),
              dataIndex: 'mapName',
              render: (_, row) => [row.buildName, row.mapName].filter(Boolean).join(' / ') || '—',
            },
            { title: t('emergency.field.gateway'), dataIndex: 'gatewayName' },
            {
              title: t('emergency.compliance.monthly'),
              dataIndex: 'functionDueAt',
              render: (_, row) =>
                due(
                  row.lastFunctionTestAt,
                  row.lastFunctionTestPassed,
                  row.functionDueAt,
                  row.functionOverdue,
                  `emergency-compliance-fn-${row.name}`,
                ),
            },
            {
              title: t('emergency.compliance.yearly'),
              dataIndex: 'lifeDueAt',
              render: (_, row) =>
                due(row.lastLifeTestAt, row.lastLifeTestPassed, row.lifeDueAt, row.lifeOverdue, `emergency-compliance-life-${row.name}`),
            },
          ]}
          pagination={tablePaging(paging, setPaging, data?.total ?? 0)}
        />
      </Card>
    </Space>
  );
}
