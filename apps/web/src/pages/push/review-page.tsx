import { useState } from 'react';
import { Button, Space, Tabs, Typography } from 'antd';
import { AuditOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PUSH_STATE, type PushReviewItem } from '@lumigrid/contract/browser';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { usePassPushNews, usePushReview } from '../../features/push/api.ts';
import { coverColumn } from './cover-thumb.tsx';
import { PushStateTag, RejectionReason } from './push-state-tag.tsx';
import { RejectModal } from './reject-modal.tsx';
import './push.css';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

type Queue = typeof PUSH_STATE.pending | typeof PUSH_STATE.failed | typeof PUSH_STATE.passed;

/** /push/review, the pushed review screen: reviewers work through the news every account sent to review. */
export default function ReviewPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const notifyOnSuccess = useNotifyOnSuccess();
  const navigate = useNavigate();
  const [query, setQuery] = useState<{ state: Queue; page: number; pageSize: number }>({
    state: PUSH_STATE.pending,
    page: 1,
    pageSize: 10,
  });
  const queue = usePushReview(query);
  const pass = usePassPushNews();
  const [rejecting, setRejecting] = useState<PushReviewItem>();
  const pending = query.state === PUSH_STATE.pending;
  const open = (n: PushReviewItem) => `/push/details?id=${n.id}&review=1`;

  const columns: ProColumns<PushReviewItem>[] = [
    coverColumn<PushReviewItem>(t('push.field.cover')),
    {
      title: t('push.field.title'),
      dataIndex: 'title',
      render: (_, n) => (
        <Space direction="vertical" size={2}>
          <Link to={open(n)} data-testid={`push-review-${n.title}`}>
            <Typography.Text strong>{n.title}</Typography.Text>
          </Link>
          <RejectionReason reason={n.reason} />
        </Space>
      ),
    },
    { title: t('push.field.state'), dataIndex: 'state', width: 110, render: (_, n) => <PushStateTag state={n.state} /> },
    { title: t('push.field.account'), dataIndex: 'account', width: 150, ellipsis: true },
    // Where it would be shown: the app, with its category and language under it.
    {
      title: t('push.field.app'),
      dataIndex: 'appName',
      width: 150,
      render: (_, n) => <WithSecondLine first={n.appName} second={`${n.categoryName} · ${t(`lang.${n.lang}`)}`} />,
    },
    {
      title: t(pending ? 'push.field.submittedAt' : 'push.field.reviewedAt'),
      dataIndex: pending ? 'submittedAt' : 'reviewedAt',
      width: 150,
      render: (_, n) => {
        return time(pending ? n.submittedAt : n.reviewedAt);
      },
    },
    {
      title: t('push.action.title'),
      key: 'actions',
      width: 270,
      fixed: 'right',
      render: (_, n) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<AuditOutlined />} onClick={() => void navigate(open(n))}>
            {t('push.action.review')}
          </Button>
          {pending && (
            <>
              <Button
                type="link"
                size="small"
                icon={<CheckOutlined />}
                disabled={pass.isPending}
                onClick={() => notifyOnSuccess(pass.mutateAsync(n.id), t('push.review.passed'))}
              >
                {t('push.action.pass')}
              </Button>
              <Button type="link" size="small" danger icon={<CloseOutlined />} onClick={() => setRejecting(n)}>
                {t('push.action.reject')}
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={t('push.review.title')} content={t('push.review.hint')}>
      <ProTable<PushReviewItem>
        rowKey="id"
        columns={columns}
        {...queryTableRows(queue)}
        cardBordered
        search={false}
        scroll={{ x: 1080 }}
        headerTitle={
          <Tabs
            activeKey={String(query.state)}
            onChange={(key) => setQuery({ state: Number(key) as Queue, page: 1, pageSize: query.pageSize })}
            items={[
              { key: String(PUSH_STATE.pending), label: t('push.review.tabPending') },
              { key: String(PUSH_STATE.failed), label: t('push.review.tabFailed') },
              { key: String(PUSH_STATE.passed), label: t('push.review.tabPassed') },
            ]}
            style={{ marginBottom: -16 }}
          />
        }
        locale={{ emptyText: <EmptyHint text={t(pending ? 'push.review.empty' : 'push.review.emptyReviewed')} /> }}
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: queue.data?.total ?? 0,
          onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
        }}
        options={{ reload: () => void queue.refetch(), density: false, setting: false, fullScreen: false }}
      />
      <RejectModal news={rejecting} onClose={() => setRejecting(undefined)} />
    </PageContainer>
  );
}
