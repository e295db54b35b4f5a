import { useState } from 'react';
import { Alert, App, Button, Form, Select, Typography } from 'antd';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../../components/page-container.tsx';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEVICE_FAMILIES, DEVICE_LIMITS, canBatchChange, type Device, type DeviceListBody } from '@lumigrid/contract/browser';
import { useBatchType, useDeviceList } from '../../../features/device-config/api.ts';
import { placeOf, typeName, keywordAndTypeFilters } from '../../../features/device-config/columns.tsx';
import { useGatewayMapNames } from '../../../features/gateways/api.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { tablePaging } from '../../../components/table-paging.ts';
import { useUserMay } from '../../../components/use-user-may.ts';
import { queryTableRows } from '../../../components/query-table-rows.ts';

interface SearchForm {
  keyword?: string;
  type?: string;
}

/**
 * /device/config/list (spec section 2): the devices to configure. Opening one leads to its parameters;
 * selecting lights of batch-changeable types changes their type in one go (batch_alter_devices).
 */
export default function DeviceConfigListPage() {
  const { t } = useTranslation();
  const gatewayMaps = useGatewayMapNames();
  const { message } = App.useApp();
  const editable = useUserMay('write');
  const [query, setQuery] = useState<DeviceListBody>({ page: 1, pageSize: DEVICE_LIMITS.pageSize.default });
  const devices = useDeviceList(query);
  const [selected, setSelected] = useState<Device[]>([]);
  const [batchOpen, setBatchOpen] = useState(false);
  const [target, setTarget] = useState<number>();
  const batch = useBatchType();
  const empty = t('common.empty');
  const refused = selected.some((d) => !DEVICE_FAMILIES.batchChangeable.includes(d.type));

  const columns: ProColumns<Device>[] = [
    ...keywordAndTypeFilters(t),
    {
      title: t('deviceConfig.field.name'),
      dataIndex: 'name',
      search: false,
      width: 180,
      render: (_, row) => <Link to={`/device/config/detail?id=${row.id}`}>{row.name}</Link>,
    },
    { title: t('deviceConfig.field.addr'), dataIndex: 'addr', search: false, width: 170 },
    { title: t('deviceConfig.field.type'), dataIndex: 'type', search: false, width: 170, render: (_, row) => typeName(t, row.type) },
    { title: t('deviceConfig.field.gateway'), dataIndex: 'gatewayName', search: false, width: 150, ellipsis: true },
    {
      title: t('deviceConfig.field.place'),
      dataIndex: 'mapName',
      search: false,
      width: 140,
      ellipsis: true,
      render: (_, row) => placeOf(t, row, gatewayMaps.get(row.gatewayId)),
    },
    {
      title: t('deviceConfig.field.firmware'),
      dataIndex: 'firmware',
      search: false,
      width: 100,
      render: (_, row) => row.firmware || empty,
    },
    {
      title: t('deviceConfig.actions'),
      valueType: 'option',
      width: 100,
      render: (_, row) => [
        <Link key="configure" to={`/device/config/detail?id=${row.id}`} data-testid={`configure-${row.addr}`}>
          {t('deviceConfig.configure')}
        </Link>,
      ],
    },
  ];

  const submitBatch = async () => {
    if (target === undefined) return;
    const done = await batch.mutateAsync({ ids: selected.map((d) => d.id), type: target });
    void message.success(t('deviceConfig.batchTypeDone', { count: done.count }));
    setBatchOpen(false);
    setSelected([]);
  };

  return (
    <PageContainer title={t('deviceConfig.configTitle')} content={t('deviceConfig.configHint')}>
      <ProTable<Device, SearchForm>
        rowKey="id"
        columns={columns}
        {...queryTableRows(devices)}
        cardBordered
        scroll={{ x: 1000 }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        rowSelection={
          editable
            ? {
                selectedRowKeys: selected.map((d) => d.id),
                onChange: (_, rows) => setSelected(rows),
                preserveSelectedRowKeys: true,
                getCheckboxProps: (row) => ({ name: row.name, 'aria-label': t('common.selectRow', { name: row.name }) }),
              }
            : undefined
        }
        tableAlertRender={({ selectedRowKeys }) => t('deviceConfig.selected', { count: selectedRowKeys.length })}
        tableAlertOptionRender={() => (
          <Button
            type="primary"
            size="small"
            onClick={() => {
              setTarget(undefined);
              setBatchOpen(true);
            }}
            data-testid="batch-type"
          >
            {t('deviceConfig.batchType')}
          </Button>
        )}
        onSubmit={(params) =>
          setQuery((current) => ({
            page: 1,
            pageSize: current.pageSize,
            ...(params.keyword?.trim() ? { name: params.keyword.trim() } : {}),
            ...(params.type ? { type: Number(params.type) } : {}),
          }))
        }
        onReset={() => setQuery((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void devices.refetch(), density: true, setting: true, fullScreen: false }}
        pagination={tablePaging(query, setQuery, devices.data?.total ?? 0)}
      />
      <FormModal
        open={batchOpen}
        title={t('deviceConfig.batchTypeTitle', { count: selected.length })}
        okText={t('deviceConfig.batchType')}
        okButtonProps={{ disabled: refused || target === undefined }}
        confirmLoading={batch.isPending}
        onSubmit={submitBatch}
        onCancel={() => setBatchOpen(false)}
      >
        <Typography.Paragraph type="secondary">{t('deviceConfig.batchTypeHint')}</Typography.Paragraph>
        {refused && <Alert type="warning" showIcon message={t('deviceConfig.batchTypeRefused')} style={{ marginBottom: 16 }} />}
        <Form layout="vertical">
          <Form.Item label={t('deviceConfig.batchTypeTarget')}>
            <Select
              value={target}
              onChange={setTarget}
              data-testid="batch-type-target"
              options={DEVICE_FAMILIES.batchChangeable
                .filter((code) => selected.every((d) => canBatchChange(d.type, code)))
                .map((code) => ({ value: code, label: typeName(t, code) }))}
            />
          </Form.Item>
        </Form>
      </FormModal>
    </PageContainer>
  );
}
