import { useState } from 'react';
import { Button, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined, RollbackOutlined, SendOutlined, StarFilled } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  LANGS,
  PUSH_STATE,
  pushEditable,
  pushStateName,
  pushSubmittable,
  type PushNewsListQuery,
  type PushNewsSummary,
} from '@lumigrid/contract/browser';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { useAllPushApps, usePushCategories, usePushNewsList } from '../../features/push/api.ts';
import { useNewsActions } from './news-actions.tsx';
import { coverColumn } from './cover-thumb.tsx';
import { PushStateTag, RejectionReason } from './push-state-tag.tsx';
import './push.css';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { tablePaging } from '../../components/table-paging.ts';
import { queryTableRows } from '../../components/query-table-rows.ts';

const STATES = [PUSH_STATE.draft, PUSH_STATE.pending, PUSH_STATE.failed, PUSH_STATE.passed] as const;

/** /push/index: the account's news with their review states, filters, and the author's actions. */
export default function NewsListPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const navigate = useNavigate();
  const [query, setQuery] = useState<PushNewsListQuery>({ page: 1, pageSize: 10 });
  const news = usePushNewsList(query);
  const apps = useAllPushApps();
  const categories = usePushCategories();
  const actions = useNewsActions();
  const filter = (change: Partial<PushNewsListQuery>) => setQuery((q) => ({ ...q, ...change, page: 1 }));
  const stateOptions = STATES.map((state) => ({ value: state, label: t(`push.state.${pushStateName(state)}`) }));
  const appOptions = (apps.data?.list ?? []).map((a) => ({ value: a.id, label: a.name }));
  const categoryOptions = (categories.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const langOptions = LANGS.map((lang) => ({ value: lang, label: t(`lang.${lang}`) }));
  /** A choice over one field of the query; its label is also its placeholder, and clearing it drops the filter. */
  const filterSelect = <K extends 'state' | 'appId' | 'categoryId' | 'lang'>(
    key: K,
    label: string,
    width: number,
    options: { value: NonNullable<PushNewsListQuery[K]>; label: string }[],
  ) => (
    <Select<PushNewsListQuery[K]>
      allowClear
      placeholder={label}
      aria-label={label}
      style={{ width }}
      value={query[key]}
      onChange={(value) => filter({ [key]: value } as Pick<PushNewsListQuery, K>)}
      options={options}
    />
  );
  const ready = (apps.data?.total ?? 0) > 0 && (categories.data?.length ?? 0) > 0;

  const columns: ProColumns<PushNewsSummary>[] = [
    coverColumn<PushNewsSummary>(t('push.field.cover')),
    {
      title: t('push.field.title'),
      dataIndex: 'title',
      render: (_, n) => (
        <Space direction="vertical" size={2}>
          <Space size={6}>
            <Link to={`/push/details?id=${n.id}`} data-testid={`push-news-${n.title}`}>
              <Typography.Text strong>{n.title}</Typography.Text>
            </Link>
            {n.recommended && (
              <Tag color="gold" bordered={false} icon={<StarFilled />}>
                {t('push.field.recommended')}
              </Tag>
            )}
          </Space>
          <RejectionReason reason={n.reason} />
        </Space>
      ),
    },
    { title: t('push.field.category'), dataIndex: 'categoryName', width: 110 },
    // The readers a news item reaches: the app, with the language under it.
    {
      title: t('push.field.app'),
      dataIndex: 'appName',
      width: 140,
      render: (_, n) => <WithSecondLine first={n.appName} second={t(`lang.${n.lang}`)} />,
    },
    { title: t('push.field.state'), dataIndex: 'state', width: 110, render: (_, n) => <PushStateTag state={n.state} /> },
    { title: t('push.field.views'), dataIndex: 'views', width: 70, align: 'right' },
    {
      title: t('push.field.updatedAt'),
      dataIndex: 'updatedAt',
      width: 160,
      render: (_, n) => <WithSecondLine first={time(n.updatedAt)} second={n.operator} />,
    },
    {
      title: t('push.action.title'),
      key: 'actions',
      width: 230,
      fixed: 'right',
      render: (_, n) => (
        <Space size={0} wrap>
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(`/push/details?id=${n.id}`)}>
            {t('push.action.view')}
          </Button>
          {pushEditable(n.state) && (
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => void navigate(`/push/editNews?id=${n.id}`)}>
              {t('push.action.edit')}
            </Button>
          )}
          {pushSubmittable(n.state) && (
            <Button
              type="link"
              size="small"
              icon={<SendOutlined />}
              disabled={actions.pending}
              onClick={() => void actions.submit(n.id)}
              data-testid={`push-submit-${n.title}`}
            >
              {t('push.action.submit')}
            </Button>
          )}
          {(pushStateName(n.state) === 'pending' || pushStateName(n.state) === 'passed') && (
            <Button type="link" size="small" icon={<RollbackOutlined />} onClick={() => actions.withdraw(n.id, n.title)}>
              {t('push.action.withdraw')}
            </Button>
          )}
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => actions.remove(n.id, n.title)}>
            {t('push.action.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={t('push.news.title')} content={t('push.news.hint')}>
      <ProTable<PushNewsSummary>
        rowKey="id"
        columns={columns}
        {...queryTableRows(news)}
        cardBordered
        search={false}
        scroll={{ x: 1080 }}
        locale={{ emptyText: <EmptyHint text={t(ready ? 'push.news.empty' : 'push.news.emptyNoApps')} /> }}
        onRow={(n) => ({ 'data-testid': `push-row-${n.title}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={tablePaging(query, setQuery, news.data?.total ?? 0)}
        headerTitle={
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('push.news.searchTitle')}
              aria-label={t('push.news.searchTitle')}
              style={{ width: 200 }}
              onSearch={(title) => filter({ title: title || undefined })}
            />
            {filterSelect('state', t('push.field.state'), 130, stateOptions)}
            {filterSelect('appId', t('push.field.app'), 150, appOptions)}
            {filterSelect('categoryId', t('push.field.category'), 140, categoryOptions)}
            {filterSelect('lang', t('push.field.lang'), 130, langOptions)}
          </Space>
        }
        toolBarRender={() => [
          <Tooltip key="add" title={ready ? undefined : t('push.news.needAppAndCategory')}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!ready}
              onClick={() => void navigate('/push/addNews')}
              data-testid="push-add-news"
            >
              {t('push.news.add')}
            </Button>
          </Tooltip>,
        ]}
        options={{ reload: () => void news.refetch(), density: false, setting: false, fullScreen: false }}
      />
    </PageContainer>
  );
}
