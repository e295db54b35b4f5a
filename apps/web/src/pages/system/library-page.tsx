import { useMemo, useState } from 'react';
import { Button, Input, Select, Space, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { LIBRARY_LIMITS, type LibraryType } from '@lumigrid/contract/browser';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { useUserMay } from '../../components/use-user-may.ts';
import { typeNameKey } from '../../features/device-config/param-fields.ts';
import { useLibrary, useRemoveLibraryType } from '../../features/library/api.ts';
import { LibraryFormModal } from './library-form-modal.tsx';
import { LibraryIcon } from './library-icon.tsx';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/** Whether a type matches the search text (name or part number) and the type filter. */
function matches(type: LibraryType, text: string, code: number | undefined): boolean {
  const needle = text.trim().toLowerCase();
  if (code !== undefined && type.type !== code) return false;
  return !needle || type.name.toLowerCase().includes(needle) || type.partNumber.toLowerCase().includes(needle);
}

/**
 * The device library (/system/library; spec sections 2, 3 "Device library type", 5): the account's luminaire
 * and device models with their icon, type, initial power, lifespan and part number. Devices whose reported
 * part number matches a type take its power as their savings baseline and its lifespan for their remaining life.
 */
export default function LibraryPage() {
  const { t, i18n } = useTranslation();
  const notifyOnSuccess = useNotifyOnSuccess();
  const editable = useUserMay('write');
  const library = useLibrary();
  const remove = useRemoveLibraryType();
  // Each opening gets a form of its own (`seq`): a form keeps the initial values it was first given.
  const [editing, setEditing] = useState<{ type?: LibraryType; seq: number }>();
  const open = (type?: LibraryType) => setEditing({ type, seq: (editing?.seq ?? 0) + 1 });
  const [search, setSearch] = useState('');
  const [code, setCode] = useState<number>();
  const all = library.data?.library ?? [];
  const shown = useMemo(() => all.filter((type) => matches(type, search, code)), [all, search, code]);
  const full = all.length >= LIBRARY_LIMITS.perAccount;
  const number = (n: number, digits = 0) => n.toLocaleString(i18n.language === 'en' ? 'en' : undefined, { maximumFractionDigits: digits });
  const usedCodes = [...new Set(all.map((type) => type.type))];

  const columns: ProColumns<LibraryType>[] = [
    {
      title: t('library.field.name'),
      dataIndex: 'name',
      width: 300,
      render: (_, type) => (
        <div className="lg-library-name">
          <LibraryIcon url={type.icon} name={type.name} />
          <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis={{ tooltip: type.name }}>
              {type.name}
            </Typography.Text>
            <Typography.Text type="secondary" className="lg-library-part" copyable={{ text: type.partNumber }}>
              {type.partNumber}
            </Typography.Text>
          </Space>
        </div>
      ),
    },
    {
      title: t('library.field.type'),
      dataIndex: 'type',
      width: 200,
      render: (_, type) => (
        <Tag bordered={false} color="geekblue">
          {t(typeNameKey(type.type))}
        </Tag>
      ),
    },
    {
      title: t('library.field.initialPower'),
      dataIndex: 'initialPower',
      width: 140,
      align: 'right',
      render: (_, type) => <Typography.Text>{`${number(type.initialPower, 1)} W`}</Typography.Text>,
    },
    {
      title: t('library.field.lifespan'),
      dataIndex: 'lifespan',
      width: 150,
      align: 'right',
      render: (_, type) => <Typography.Text>{t('library.hoursValue', { value: number(type.lifespan) })}</Typography.Text>,
    },
    {
      title: t('library.field.devices'),
      dataIndex: 'devices',
      width: 120,
      align: 'center',
      render: (_, type) =>
        type.devices > 0 ? (
          <Tag color="green" bordered={false} data-testid={`library-devices-${type.name}`}>
            {t('library.deviceCount', { count: type.devices })}
          </Tag>
        ) : (
          <Typography.Text type="secondary" data-testid={`library-devices-${type.name}`}>
            {t('library.noDevices')}
          </Typography.Text>
        ),
    },
    ...(editable
      ? [
          {
            title: t('library.actions'),
            key: 'actions',
            width: 170,
            fixed: 'right' as const,
            render: (_: unknown, type: LibraryType) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => open(type)}
                  data-testid={`library-edit-${type.name}`}
                >
                  {t('library.edit')}
                </Button>
                <DangerConfirm
                  title={t('library.deleteConfirm', { name: type.name })}
                  description={type.devices > 0 ? t('library.inUse', { count: type.devices }) : undefined}
                  okText={t('library.delete')}
                  okButtonProps={{ 'data-testid': 'library-delete-ok' } as ButtonProps}
                  onConfirm={() => notifyOnSuccess(remove.mutateAsync(type.id), t('library.deleted'))}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`library-delete-${type.name}`}>
                    {t('library.delete')}
                  </Button>
                </DangerConfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer title={t('library.title')} content={t('library.hint')}>
      <ProTable<LibraryType>
        rowKey="id"
        columns={columns}
        dataSource={shown}
        loading={library.isLoading}
        locale={{
          emptyText: <EmptyHint text={all.length > 0 ? t('library.noMatch') : t(editable ? 'library.emptyEditable' : 'library.empty')} />,
        }}
        cardBordered
        search={false}
        pagination={shown.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 1080 }}
        headerTitle={t('library.count', { count: all.length, max: LIBRARY_LIMITS.perAccount })}
        onRow={(type) => ({ 'data-testid': `library-row-${type.name}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() => [
          <Select<number>
            key="type"
            allowClear
            value={code}
            onChange={setCode}
            placeholder={t('library.allTypes')}
            aria-label={t('library.allTypes')}
            style={{ width: 200 }}
            options={usedCodes.map((value) => ({ value, label: t(typeNameKey(value)) }))}
            data-testid="library-filter-type"
          />,
          <Input.Search
            key="search"
            allowClear
            placeholder={t('library.search')}
            aria-label={t('library.search')}
            onChange={(event) => setSearch(event.target.value)}
            style={{ width: 240 }}
            data-testid="library-search"
          />,
          ...(editable
            ? [
                <Tooltip key="add" title={full ? t('library.full', { max: LIBRARY_LIMITS.perAccount }) : undefined}>
                  <Button type="primary" icon={<PlusOutlined />} disabled={full} onClick={() => open()} data-testid="library-add">
                    {t('library.add')}
                  </Button>
                </Tooltip>,
              ]
            : []),
        ]}
        options={{ reload: () => void library.refetch(), density: false, setting: false, fullScreen: false }}
      />
      <LibraryFormModal
        key={editing?.seq ?? 0}
        open={Boolean(editing)}
        type={editing?.type}
        table={library.data?.table ?? []}
        onClose={() => setEditing(undefined)}
      />
    </PageContainer>
  );
}
