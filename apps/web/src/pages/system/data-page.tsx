import { useEffect, useMemo, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Col, Progress, Result, Row, Space, Tag, Tooltip, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import {
  CloudDownloadOutlined,
  CloudUploadOutlined,
  DatabaseOutlined,
  FileZipOutlined,
  FolderOutlined,
  PictureOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import type { BackupArchive, BackupDirectory } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { useForcedSignOut } from '../../app/realtime-provider.tsx';
import { EmptyHint } from '../../components/empty-hint.tsx';
import {
  fetchBackupDirectories,
  formatBytes,
  isRunning,
  signedOutByRestore,
  useBackupArchives,
  useBackupDirectories,
  useBackupProgress,
  useStartBackup,
  useStartRestore,
} from '../../features/backup/api.ts';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { FormModal } from '../../components/form-modal.tsx';

/** How the archive list names the database an archive was taken from. */
const DATABASE_NAMES = { pglite: 'PGlite', postgres: 'PostgreSQL' } as const;

interface Job {
  id: string;
  kind: 'backup' | 'restore';
  file?: string;
}

/** The folders below the backup root as a tree that opens each folder when it is expanded. */
function FolderTree({ path, onSelect }: { path: string; onSelect(path: string): void }) {
  const { t } = useTranslation();
  const top = useBackupDirectories('');
  const [loaded, setLoaded] = useState<Record<string, BackupDirectory[]>>({});
  const treeData = useMemo(() => {
    const children = (list: BackupDirectory[] | undefined): TreeDataNode[] | undefined =>
      list?.map((d) => ({ key: d.path, title: d.name, isLeaf: loaded[d.path]?.length === 0, children: children(loaded[d.path]) }));
    return [{ key: '', title: t('backup.rootFolder'), children: children(top.data?.directories) }];
  }, [top.data, loaded, t]);

  return (
    <Card
      title={t('backup.folders')}
      extra={
        <Tooltip title={t('backup.reload')}>
          <Button
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('backup.reload')}
            onClick={() => (setLoaded({}), void top.refetch())}
          />
        </Tooltip>
      }
      styles={{ body: { paddingTop: 12 } }}
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('backup.rootHint')}
        <br />
        <Typography.Text code copyable data-testid="backup-root">
          {top.data?.root ?? '…'}
        </Typography.Text>
      </Typography.Paragraph>
      <Tree.DirectoryTree
        data-testid="backup-folders"
        treeData={treeData}
        selectedKeys={[path]}
        defaultExpandedKeys={['']}
        expandAction="doubleClick"
        icon={<FolderOutlined />}
        loadData={async (node) => {
          const key = String(node.key);
          if (key === '' || loaded[key]) return;
          const answer = await fetchBackupDirectories(key);
          setLoaded((before) => ({ ...before, [key]: answer.directories }));
        }}
        onSelect={(keys) => onSelect(String(keys[0] ?? ''))}
      />
    </Card>
  );
}

/** The running backup or restore: its progress bar, then how it ended. */
function JobModal({ job, onClose }: { job: Job | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const forcedSignOut = useForcedSignOut();
  const progress = useBackupProgress(job);
  const restored = job?.kind === 'restore' && (progress.data?.state === 'succeeded' || signedOutByRestore(progress.error));
  const data = progress.data;
  const running = !restored && !progress.error && isRunning(data);
  const failed = !restored && (data?.state === 'failed' || !!progress.error);
  const percent = restored ? 100 : (data?.percent ?? 0);
  const title = job?.kind === 'restore' ? t('backup.restoreTitle') : t('backup.backupTitle');

  // A restore ends every session, this one too: the forced logout, unless the real-time notice came first.
  useEffect(() => {
    if (restored) forcedSignOut(t('backup.restoredSignIn'));
  }, [restored, forcedSignOut, t]);

  return (
    <FormModal
      open={job !== undefined}
      title={title}
      width={720}
      closable={!running}
      maskClosable={false}
      keyboard={!running}
      onCancel={onClose}
      footer={
        running ? null : (
          <Button type="primary" onClick={onClose}>
            {t('backup.close')}
          </Button>
        )
      }
    >
      <div data-testid="backup-progress" data-state={restored ? 'succeeded' : failed ? 'failed' : (data?.state ?? 'running')}>
        {data?.state === 'succeeded' && job?.kind === 'backup' ? (
          <Result status="success" title={t('backup.backupDone')} subTitle={data.file} />
        ) : (
          <>
            <Typography.Paragraph>
              {job?.kind === 'restore' ? t('backup.restoreRunning', { file: job.file }) : t('backup.backupRunning')}
            </Typography.Paragraph>
            <Progress
              aria-label={job?.kind === 'restore' ? t('backup.restoreRunning', { file: job.file }) : t('backup.backupRunning')}
              percent={percent}
              status={failed ? 'exception' : running ? 'active' : 'success'}
            />
            {running && (
              <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
                {job?.kind === 'restore' ? t('backup.restoreKeepOpen') : t('backup.backupKeepWorking')}
              </Typography.Paragraph>
            )}
            {failed && <Alert style={{ marginTop: 16 }} type="error" showIcon message={data?.msg ?? t('backup.failed')} />}
            {restored && <Alert style={{ marginTop: 16 }} type="success" showIcon message={t('backup.restoredSignIn')} />}
          </>
        )}
      </div>
    </FormModal>
  );
}

/**
 * /system/data (server mode, the platform administrator): choose a folder below the backup root, back up into
 * it with a progress bar, see its archives (size, time, what they hold) and restore one, after which every
 * user, this one included, is signed out (the forced-logout notice).
 */
export default function DataPage() {
  const { t } = useTranslation();
  const { mode } = useBoot();
  if (mode === 'server') return <BackupScreen />;
  // The menu hides the page in SaaS mode; an old link still says why there is nothing here.
  return (
    <PageContainer title={t('backup.title')}>
      <Result status="info" title={t('backup.serverOnly')} />
    </PageContainer>
  );
}

function BackupScreen() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const { modal } = AntApp.useApp();
  const [path, setPath] = useState('');
  const [job, setJob] = useState<Job>();
  const archives = useBackupArchives(path);
  const startBackup = useStartBackup();
  const startRestore = useStartRestore();

  const backup = async () => {
    const started = await startBackup.mutateAsync(path);
    setJob({ id: started.id, kind: 'backup' });
  };

  const confirmRestore = (archive: BackupArchive) =>
    modal.confirm({
      title: t('backup.restoreConfirmTitle'),
      width: 520,
      content: (
        <Space direction="vertical" size={4}>
          <Typography.Text>{t('backup.restoreConfirm', { time: time(archive.createdAt, 'second') })}</Typography.Text>
          <Typography.Text type="secondary">{t('backup.restoreConsequences')}</Typography.Text>
        </Space>
      ),
      okText: t('backup.restore'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'restore-confirm' } as Record<string, string>) },
      cancelText: t('backup.cancel'),
      onOk: async () => {
        const started = await startRestore.mutateAsync({ path, file: archive.file });
        setJob({ id: started.id, kind: 'restore', file: archive.file });
      },
    });

  const columns: ProColumns<BackupArchive>[] = [
    {
      title: t('backup.file'),
      dataIndex: 'file',
      width: 320,
      render: (_, row) => (
        <Space align="start">
          <FileZipOutlined style={{ color: '#1677ff', fontSize: 18, marginTop: 3 }} />
          <Space direction="vertical" size={0}>
            <Typography.Text strong>{row.file}</Typography.Text>
            <Space size={6} wrap>
              <Typography.Text type="secondary">
                {formatBytes(row.size)}
                {row.version ? ` · ${t('backup.madeBy', { version: row.version, database: DATABASE_NAMES[row.database] })}` : ''}
              </Typography.Text>
              {!row.restorable && (
                <Tooltip title={t('backup.notRestorableHint')}>
                  <Tag color="orange" bordered={false}>
                    {t('backup.notRestorable')}
                  </Tag>
                </Tooltip>
              )}
            </Space>
          </Space>
        </Space>
      ),
    },
    {
      title: t('backup.time'),
      dataIndex: 'createdAt',
      width: 165,
      render: (_, row) => time(row.createdAt, 'second'),
    },
    {
      title: t('backup.contents'),
      key: 'contents',
      render: (_, row) =>
        row.tables > 0 ? (
          <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <Typography.Text>
              <DatabaseOutlined /> {t('backup.tablesRows', { tables: row.tables, rows: row.rows.toLocaleString() })}
            </Typography.Text>
            <Typography.Text type="secondary">
              <PictureOutlined /> {t('backup.filesBytes', { files: row.files, size: formatBytes(row.filesBytes) })}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t('backup.action'),
      key: 'action',
      width: 100,
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          danger
          icon={<CloudDownloadOutlined />}
          disabled={!row.restorable || job !== undefined}
          data-testid={`restore-${row.file}`}
          onClick={() => confirmRestore(row)}
        >
          {t('backup.restore')}
        </Button>
      ),
    },
  ];

  return (
    <PageContainer title={t('backup.title')} content={t('backup.hint')}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={7} xxl={5}>
          <FolderTree path={path} onSelect={setPath} />
        </Col>
        <Col xs={24} lg={17} xxl={19}>
          <ProTable<BackupArchive>
            rowKey="file"
            headerTitle={
              <Space>
                <FolderOutlined />
                {path === '' ? t('backup.rootFolder') : path}
              </Space>
            }
            locale={{ emptyText: <EmptyHint text={t('backup.empty')} /> }}
            columns={columns}
            dataSource={archives.data?.list ?? []}
            loading={archives.isFetching}
            search={false}
            cardBordered
            pagination={false}
            scroll={{ x: 760 }}
            options={{ reload: () => void archives.refetch(), density: false, setting: false, fullScreen: false }}
            toolBarRender={() => [
              <Button
                key="backup"
                type="primary"
                icon={<CloudUploadOutlined />}
                loading={startBackup.isPending}
                disabled={job !== undefined}
                data-testid="backup-now"
                onClick={() => void backup()}
              >
                {t('backup.backupNow')}
              </Button>,
            ]}
          />
        </Col>
      </Row>
      <JobModal job={job} onClose={() => setJob(undefined)} />
    </PageContainer>
  );
}
