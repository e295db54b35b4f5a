import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Cascader, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Device, ParamApplyResult, ParamTemplate } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { deviceConfigApi, deviceConfigKeys } from '../device-config/api.ts';
import { useMapGateways } from '../devices/api.ts';
import { useProjectTree, WHOLE_TREE } from '../projects/api.ts';
import { createCurrentMapStore } from '../projects/current-map.ts';
import { initialMapPath, mapPathOptions, pathExists, type MapPath } from '../projects/tree.ts';
import { virtualApi, virtualKeys } from './api.ts';
import { applyInBatches } from './apply-batches.ts';
import { typeLabel } from '../device-config/param-fields.ts';
import { FormModal } from '../../components/form-modal.tsx';

type Row = Pick<Device, 'id' | 'name' | 'addr'> & { result?: ParamApplyResult };

/**
 * "Apply to devices": a map (and optionally a gateway), the devices of the template's type there, and the
 * template set on each through its gateway a few at a time, with live progress and one result per device.
 */
export function ApplyTemplateModal({ template, onClose }: { template: ParamTemplate | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const tree = useProjectTree(WHOLE_TREE);
  const queryClient = useQueryClient();
  const store = useMemo(() => createCurrentMapStore(), []);
  const [chosen, setChosen] = useState<MapPath>();
  const [gatewayId, setGatewayId] = useState<string>();
  const [selected, setSelected] = useState<string[]>([]);
  const [results, setResults] = useState<Map<string, ParamApplyResult>>(new Map());
  const [running, setRunning] = useState(false);
  const [total, setTotal] = useState(0);

  const path = useMemo(() => {
    if (!tree.data) return undefined;
    if (chosen && pathExists(tree.data, chosen)) return chosen;
    return initialMapPath(tree.data, store.read());
  }, [tree.data, chosen, store]);
  const mapId = path?.[2];
  const gateways = useMapGateways(mapId);
  const body = { mapId, gatewayId, type: template?.deviceType, page: 1, pageSize: 200 };
  const devices = useQuery({
    queryKey: deviceConfigKeys.list(body),
    queryFn: ({ signal }) => deviceConfigApi.list(body, signal),
    enabled: Boolean(template && mapId),
  });

  useEffect(() => {
    setSelected([]);
    setResults(new Map());
    setTotal(0);
  }, [template, mapId, gatewayId]);

  const rows: Row[] = (devices.data?.list ?? []).map((d) => ({ id: d.id, name: d.name, addr: d.addr, result: results.get(d.id) }));
  const done = results.size;
  const failed = [...results.values()].filter((r) => r.code !== 0).length;

  const run = async (ids: string[]) => {
    if (!template || ids.length === 0) return;
    setRunning(true);
    setTotal(ids.length);
    setResults(new Map());
    try {
      await applyInBatches(
        ids,
        (batch) => virtualApi.apply({ id: template.id, deviceIds: batch }),
        (batchResults) =>
          setResults((previous) => {
            const next = new Map(previous);
            for (const r of batchResults) next.set(r.deviceId, r);
            return next;
          }),
        (error) => ({
          code: error instanceof ApiError ? (error.code ?? 0) : 0,
          msg: error instanceof Error ? error.message : String(error),
        }),
      );
    } finally {
      setRunning(false);
      // The sets' "in use" counts changed with the devices that took it.
      void queryClient.invalidateQueries({ queryKey: virtualKeys.all });
    }
  };

  const resultCell = (row: Row) => {
    if (!row.result) {
      return running && selected.includes(row.id) ? (
        <Tag icon={<LoadingOutlined />} bordered={false}>
          {t('paramTemplates.resultPending')}
        </Tag>
      ) : null;
    }
    return row.result.code === 0 ? (
      <Tag icon={<CheckCircleFilled />} color="success" bordered={false} data-testid={`apply-ok-${row.id}`}>
        {t('paramTemplates.resultOk')}
      </Tag>
    ) : (
      <Tag icon={<CloseCircleFilled />} color="error" bordered={false} data-testid={`apply-failed-${row.id}`}>
        {row.result.msg || row.result.code}
      </Tag>
    );
  };

  const failedIds = [...results.values()].filter((r) => r.code !== 0).map((r) => r.deviceId);

  return (
    <FormModal
      open={Boolean(template)}
      width={820}
      title={template ? t('paramTemplates.applyTitle', { name: template.name }) : undefined}
      onCancel={() => !running && onClose()}
      maskClosable={!running}
      footer={
        <Space>
          {failedIds.length > 0 && !running && (
            <Button onClick={() => void run(failedIds)} data-testid="apply-retry">
              {t('paramTemplates.retryFailed')}
            </Button>
          )}
          <Button onClick={onClose} disabled={running}>
            {t('paramTemplates.close')}
          </Button>
          <Button
            type="primary"
            disabled={selected.length === 0}
            loading={running}
            onClick={() => void run(selected)}
            data-testid="apply-start"
          >
            {t('paramTemplates.applyStart', { count: selected.length })}
          </Button>
        </Space>
      }
      data-testid="apply-modal"
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Typography.Text>{t('paramTemplates.applyMap')}</Typography.Text>
        <Cascader
          style={{ width: 360 }}
          options={mapPathOptions(tree.data)}
          value={path}
          allowClear={false}
          expandTrigger="hover"
          onChange={(value) => {
            if (Array.isArray(value) && value.length === 3) setChosen(value.map(String) as MapPath);
          }}
          data-testid="apply-map"
        />
        <Typography.Text>{t('paramTemplates.applyGateway')}</Typography.Text>
        <Select
          style={{ width: 200 }}
          allowClear
          placeholder={t('paramTemplates.allGateways')}
          value={gatewayId}
          onChange={setGatewayId}
          options={(gateways.data?.list ?? []).filter((g) => g.mapId === mapId).map((g) => ({ value: g.id, label: g.name || g.mac }))}
        />
      </Space>
      {template && (
        <Typography.Paragraph type="secondary">
          {t('paramTemplates.applyDevices')}: {typeLabel(t, template.deviceType)}
        </Typography.Paragraph>
      )}
      {total > 0 && (
        <div style={{ marginBottom: 16 }} data-testid="apply-progress">
          <Progress
            aria-label={t('paramTemplates.applyProgress', { done, total })}
            percent={Math.round((done / total) * 100)}
            status={running ? 'active' : failed > 0 ? 'exception' : 'success'}
          />
          <Typography.Text type={failed > 0 ? 'danger' : 'success'}>
            {running ? t('paramTemplates.applyProgress', { done, total }) : t('paramTemplates.applyDone', { ok: done - failed, failed })}
          </Typography.Text>
        </div>
      )}
      {devices.data && rows.length === 0 ? (
        <Alert type="info" showIcon message={t('paramTemplates.applyNone')} />
      ) : (
        <Table<Row>
          size="small"
          rowKey="id"
          loading={devices.isLoading}
          dataSource={rows}
          pagination={false}
          scroll={{ y: 320 }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ disabled: running, 'aria-label': t('common.selectRow', { name: row.name }) }),
          }}
          columns={[
            { title: t('paramTemplates.device'), dataIndex: 'name' },
            { title: 'MAC', dataIndex: 'addr', width: 200 },
            { title: t('paramTemplates.result'), key: 'result', width: 240, render: (_, row) => resultCell(row) },
          ]}
        />
      )}
    </FormModal>
  );
}
