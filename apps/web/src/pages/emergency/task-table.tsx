import { useState } from 'react';
import { Button, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { CaretRightOutlined, DeleteOutlined, EditOutlined, PauseOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  EMERGENCY_TASK_STATUSES,
  EMERGENCY_TEST_KINDS,
  type EmergencyTask,
  type EmergencyTaskListBody,
  type EmergencyTaskStatus,
  type EmergencyTestKind,
} from '@lumigrid/contract/browser';
import { useEmergencyTasks } from '../../features/emergency/api.ts';
import { durationText } from '../../features/emergency/texts.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { useTaskActions } from './use-task-actions.tsx';
import { RESULT_COLOUR, STATUS_COLOUR, taskPath } from './emergency-links.ts';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { IconButton } from '../../components/icon-button.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { choiceFilter } from '../../components/search-filters.ts';

interface TaskSearch {
  name?: string;
  status?: EmergencyTaskStatus;
  test?: EmergencyTestKind;
}

/**
 * Detection management: the project's test tasks (spec section 3) with their live progress. Editors create,
 * start, stop and delete them; everyone else sees them.
 */
export function TaskTable({ projectId, editable }: { projectId: string | undefined; editable: boolean }) {
  const { t } = useTranslation();
  const { time } = useSiteTime({ projectId });
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Omit<EmergencyTaskListBody, 'projectId'>>({ page: 1, pageSize: 20 });
  const tasks = useEmergencyTasks(projectId ? { projectId, ...filters } : undefined);
  const actions = useTaskActions();

  const columns: ProColumns<EmergencyTask>[] = [
    { title: t('emergency.field.name'), dataIndex: 'name', hideInTable: true },
    choiceFilter(t('emergency.field.status'), 'status', EMERGENCY_TASK_STATUSES, (s) => t(`emergency.status.${s}`)),
    choiceFilter(t('emergency.field.test'), 'test', EMERGENCY_TEST_KINDS, (k) => t(`emergency.test.${k}`)),
    {
      title: t('emergency.field.name'),
      dataIndex: 'name',
      search: false,
      render: (_, task) => (
        <Space direction="vertical" size={0}>
          <Link to={taskPath(task)} data-testid={`emergency-task-link-${task.name}`}>
            {task.name}
          </Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`emergency.test.${task.test}`)}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('emergency.field.quantity'), dataIndex: 'quantity', search: false, align: 'right' },
    {
      title: t('emergency.field.progress'),
      dataIndex: 'progress',
      search: false,
      width: 150,
      render: (_, task) =>
        task.lastRunId ? (
          <Progress
            aria-label={`${t('emergency.field.progress')}: ${task.name}`}
            percent={task.progress}
            size="small"
            status={task.status === 'running' ? 'active' : task.result === 'failed' ? 'exception' : 'normal'}
            data-testid={`emergency-task-progress-${task.name}`}
          />
        ) : (
          <Typography.Text type="secondary">{t('emergency.neverRun')}</Typography.Text>
        ),
    },
    {
      title: t('emergency.field.result'),
      dataIndex: 'result',
      search: false,
      render: (_, task) =>
        task.result ? (
          <Tooltip title={t('emergency.passedFailed', { passed: task.passed, failed: task.failed })}>
            <Tag color={RESULT_COLOUR[task.result]} data-testid={`emergency-task-result-${task.name}`}>
              {t(`emergency.result.${task.result}`)}
            </Tag>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      title: t('emergency.field.project'),
      dataIndex: 'projectName',
      search: false,
      render: (_, task) => (
        <WithSecondLine first={task.projectName} second={[task.buildName, task.mapName, task.gatewayName].join(' / ')} />
      ),
    },
    {
      title: t('emergency.field.lightType'),
      dataIndex: 'lightType',
      search: false,
      render: (_, task) => t(`emergency.lightType.${task.lightType}`),
    },
    {
      title: t('emergency.field.duration'),
      dataIndex: 'duration',
      search: false,
      render: (_, task) => <span style={{ whiteSpace: 'nowrap' }}>{durationText(t, task.test, task.duration)}</span>,
    },
    { title: t('emergency.field.batteryCells'), dataIndex: 'batteryCells', search: false, align: 'right' },
    {
      title: t('emergency.field.status'),
      dataIndex: 'status',
      search: false,
      render: (_, task) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLOUR[task.status]} data-testid={`emergency-task-status-${task.name}`}>
            {t(`emergency.status.${task.status}`)}
          </Tag>
          {task.nextRunAt && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('emergency.nextRun', { at: time(task.nextRunAt) })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('emergency.field.actions'),
      valueType: 'option',
      width: editable ? 130 : 80,
      render: (_, task) => (
        <Space size={0} wrap>
          {editable &&
            (task.status === 'running' ? (
              <IconButton
                label={t('emergency.action.stop')}
                type="link"
                size="small"
                danger
                icon={<PauseOutlined />}
                onClick={() => actions.confirm(task, 'stop')}
                data-testid={`emergency-stop-${task.name}`}
              />
            ) : (
              <IconButton
                label={t('emergency.action.start')}
                type="link"
                size="small"
                icon={<CaretRightOutlined />}
                onClick={() => actions.confirm(task, 'start')}
                data-testid={`emergency-start-${task.name}`}
              />
            ))}
          {editable && (
            <IconButton
              label={t('emergency.action.edit')}
              type="link"
              size="small"
              icon={<EditOutlined />}
              disabled={task.status === 'running'}
              onClick={() => void navigate(`/emergency/set/add?i=${task.id}&p=${task.projectId}`)}
              data-testid={`emergency-edit-${task.name}`}
            />
          )}
          {editable && (
            <IconButton
              label={t('emergency.action.delete')}
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => actions.confirm(task, 'delete')}
              data-testid={`emergency-delete-${task.name}`}
            />
          )}
          {!editable && <Link to={taskPath(task)}>{t('emergency.action.view')}</Link>}
        </Space>
      ),
    },
  ];

  return (
    <ProTable<EmergencyTask, TaskSearch>
      rowKey="id"
      size="middle"
      columns={columns}
      {...queryTableRows(tasks)}
      locale={{ emptyText: <EmptyHint text={t(editable ? 'emergency.emptyTasks' : 'emergency.emptyTasksView')} /> }}
      search={{ labelWidth: 'auto', span: 6, defaultCollapsed: false, collapseRender: false }}
      onRow={(task) => ({ 'data-testid': `emergency-task-row-${task.name}` }) as React.HTMLAttributes<HTMLElement>}
      toolBarRender={() =>
        editable
          ? [
              <Button
                key="add"
                type="primary"
                icon={<PlusOutlined />}
                disabled={!projectId}
                onClick={() => void navigate(`/emergency/set/add${projectId ? `?p=${projectId}` : ''}`)}
                data-testid="emergency-task-add"
              >
                {t('emergency.addTask')}
              </Button>,
            ]
          : []
      }
      onSubmit={(params) =>
        setFilters((current) => ({
          page: 1,
          pageSize: current.pageSize,
          ...(params.name?.trim() ? { name: params.name.trim() } : {}),
          ...(params.status ? { status: params.status } : {}),
          ...(params.test ? { test: params.test } : {}),
        }))
      }
      onReset={() => setFilters((current) => ({ page: 1, pageSize: current.pageSize }))}
      options={{ reload: () => void tasks.refetch(), density: false, setting: true, fullScreen: false }}
      pagination={tablePaging(filters, setFilters, tasks.data?.total ?? 0)}
    />
  );
}
