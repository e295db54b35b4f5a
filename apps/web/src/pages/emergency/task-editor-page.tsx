import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Transfer,
  Typography,
} from 'antd';
import type { RuleObject } from 'antd/es/form';
import { PageContainer } from '../../components/page-container.tsx';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EMERGENCY_LIGHT_TYPES, EMERGENCY_LIMITS, EMERGENCY_RECURRENCES, EMERGENCY_TEST_KINDS, userMay } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { useMe } from '../../features/auth/api.ts';
import { useEmergencyTask, useEmergencyTree, useSaveEmergencyTask } from '../../features/emergency/api.ts';
import {
  NEW_TASK,
  cellsProblem,
  durationProblem,
  durationUnit,
  firstPlaceWithLights,
  formOfTask,
  nameProblem,
  placeChoices,
  saveBodyOf,
  taskFormProblems,
  type TaskFormProblem,
  type TaskFormValues,
} from '../../features/emergency/task-form.ts';
import { codeText, stateText } from '../../features/emergency/texts.ts';
import { ProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { taskPath } from './emergency-links.ts';
import { useSearchParam } from '../../components/use-search-param.ts';

/** The distances of the recurrence, in metres within the contract's limits. */
const METRE_FIELDS = [
  { name: 'spacingM', label: 'emergency.field.spacing', hint: 'emergency.form.spacingHint' },
  { name: 'planWidthM', label: 'emergency.field.planWidth', hint: 'emergency.form.planWidthHint' },
] as const;

/**
 * /emergency/set/add: a new test task, or the task `i` of project `p` (spec section 2). The place is chosen
 * top-down (project, building, map, gateway), then the gateway's emergency lights are moved to the right-hand
 * list; the test, its duration and the battery follow, then the recurrence EN 50172 asks for (a monthly
 * function test, a yearly duration test) with the spacing that keeps neighbours from testing together.
 */
export default function TaskEditorPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const taskId = useSearchParam('i');
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const current = useCurrentProject(useSearchParam('p'));
  const existing = useEmergencyTask(taskId);
  const projectId = existing.data?.task.projectId ?? current.projectId;
  const tree = useEmergencyTree(projectId, taskId ?? '0');
  const save = useSaveEmergencyTask();
  const [form] = Form.useForm<TaskFormValues>();
  const values = (Form.useWatch([], form) ?? NEW_TASK) as TaskFormValues;
  const [placeError, setPlaceError] = useState(false);
  const [loadedFor, setLoadedFor] = useState<string>();

  // The form fills once: from the task when editing, else with the first gateway that has emergency lights.
  useEffect(() => {
    if (taskId) {
      if (existing.data && loadedFor !== taskId) {
        form.setFieldsValue(formOfTask(existing.data.task));
        setLoadedFor(taskId);
      }
    } else if (tree.data && loadedFor !== `new-${projectId}`) {
      // Only the place: what was typed before the tree arrived stays.
      form.setFieldsValue({ ...firstPlaceWithLights(tree.data), deviceIds: [] });
      setLoadedFor(`new-${projectId}`);
    }
  }, [taskId, existing.data, tree.data, projectId, loadedFor, form]);

  const choices = useMemo(() => placeChoices(tree.data, values), [tree.data, values]);
  const test = values.test ?? 'function';
  const unit = durationUnit(test);
  const range = test === 'function' ? EMERGENCY_LIMITS.functionDurationS : EMERGENCY_LIMITS.lifeDurationMin;

  /** An antd rule from a problem check: the spec's message, from the catalogue or the contract's error table. */
  const ruleOf = (check: (value: unknown) => TaskFormProblem | undefined): RuleObject => ({
    validator: async (_: unknown, value: unknown) => {
      const problem = check(value);
      if (problem) throw new Error('code' in problem ? codeText(problem.code) : t(problem.key));
    },
  });

  const submit = async () => {
    const all = form.getFieldsValue(true) as TaskFormValues;
    const problems = taskFormProblems(all);
    setPlaceError(problems.some((p) => p.field === 'place'));
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (problems.length || !projectId) return;
    try {
      const saved = await save.mutateAsync(saveBodyOf(all, projectId, taskId));
      void message.success(t(taskId ? 'emergency.form.saved' : 'emergency.form.created', { name: all.name.trim() }));
      void navigate(taskPath({ id: saved.id, projectId }));
    } catch (error) {
      // 340001: the name is taken; the client showed the message, the field says it too.
      if (error instanceof ApiError && error.code === 340001) form.setFields([{ name: 'name', errors: [codeText(340001)] }]);
    }
  };

  if (!editable && user) return <Result status="403" title={t('emergency.form.readOnly')} />;
  if ((taskId && existing.isLoading) || current.tree.isLoading) return <Spin style={{ display: 'block', margin: '96px auto' }} />;

  const transferItems = choices.devices.map((d) => ({
    key: d.id,
    title: d.name,
    description: d.addr,
    disabled: d.busy && !values.deviceIds?.includes(d.id),
    device: d,
  }));

  return (
    <PageContainer
      title={t(taskId ? 'emergency.form.editTitle' : 'emergency.form.addTitle')}
      content={t('emergency.form.hint')}
      onBack={() => void navigate(-1)}
    >
      <Form<TaskFormValues> form={form} layout="vertical" initialValues={NEW_TASK} requiredMark disabled={save.isPending}>
        <Card title={t('emergency.form.basics')} variant="borderless" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                label={t('emergency.field.name')}
                name="name"
                required
                rules={[ruleOf((v) => nameProblem(typeof v === 'string' ? v : ''))]}
                extra={t('emergency.form.nameRule')}
              >
                <Input placeholder={t('emergency.form.namePlaceholder')} data-testid="emergency-form-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('emergency.field.project')} required>
                <ProjectSelect
                  tree={current.tree.data}
                  value={projectId}
                  disabled={Boolean(taskId)}
                  onChange={(id) => {
                    current.setProjectId(id);
                    form.setFieldsValue({ buildId: undefined, mapId: undefined, gatewayId: undefined, deviceIds: [] });
                  }}
                />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card title={t('emergency.form.lights')} variant="borderless" style={{ marginBottom: 16 }} loading={tree.isLoading}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.building')} name="buildId" required>
                <Select
                  options={choices.builds.map((b) => ({ value: b.id, label: b.name }))}
                  placeholder={t('emergency.form.choose')}
                  onChange={() => form.setFieldsValue({ mapId: undefined, gatewayId: undefined, deviceIds: [] })}
                  data-testid="emergency-form-building"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.map')} name="mapId" required>
                <Select
                  options={choices.maps.map((m) => ({ value: m.id, label: m.name }))}
                  placeholder={t('emergency.form.choose')}
                  onChange={() => form.setFieldsValue({ gatewayId: undefined, deviceIds: [] })}
                  data-testid="emergency-form-map"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.gateway')} name="gatewayId" required>
                <Select
                  options={choices.gateways.map((g) => ({
                    value: g.id,
                    label: `${g.name} (${t('emergency.form.lightCount', { count: g.devices.length })})`,
                  }))}
                  placeholder={t('emergency.form.choose')}
                  notFoundContent={t('emergency.form.noGateways')}
                  onChange={() => form.setFieldsValue({ deviceIds: [] })}
                  data-testid="emergency-form-gateway"
                />
              </Form.Item>
            </Col>
          </Row>
          <div data-testid="emergency-transfer">
            <Form.Item name="deviceIds" valuePropName="targetKeys" style={{ marginBottom: 0 }}>
              <Transfer
                dataSource={transferItems}
                titles={[t('emergency.form.available'), t('emergency.form.chosen')]}
                showSearch
                filterOption={(input, item) => `${item.title} ${item.description}`.toLowerCase().includes(input.toLowerCase())}
                locale={{
                  itemUnit: t('emergency.form.itemUnit'),
                  itemsUnit: t('emergency.form.itemsUnit'),
                  searchPlaceholder: t('emergency.form.search'),
                  notFoundContent: t('emergency.form.noLights'),
                }}
                listStyle={{ width: '100%', height: 300 }}
                style={{ width: '100%' }}
                onChange={() => setPlaceError(false)}
                render={(item) => (
                  <Space size={6} data-testid={`emergency-transfer-${item.title}`}>
                    <span>{item.title}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {item.device.online ? stateText(t, item.device.state) : t('emergency.category.offline')}
                    </Typography.Text>
                    {item.device.busy && (
                      <Tag color="processing" bordered={false}>
                        {t('emergency.form.busy')}
                      </Tag>
                    )}
                  </Space>
                )}
              />
            </Form.Item>
          </div>
          {placeError && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 12 }}
              message={t('emergency.form.placeRequired')}
              data-testid="emergency-place-error"
            />
          )}
        </Card>

        <Card title={t('emergency.form.testSection')} variant="borderless" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.test')} name="test" required>
                <Radio.Group
                  optionType="button"
                  buttonStyle="solid"
                  options={EMERGENCY_TEST_KINDS.map((k) => ({ value: k, label: t(`emergency.test.${k}`) }))}
                  onChange={(e) => {
                    // Each kind has its own unit and range: start from a sensible value of the new one.
                    form.setFieldsValue({ duration: e.target.value === 'function' ? 30 : 180 });
                    void form.validateFields(['duration']).catch(() => undefined);
                  }}
                  data-testid="emergency-form-test"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                label={t('emergency.field.duration')}
                name="duration"
                required
                dependencies={['test']}
                rules={[ruleOf((v) => durationProblem(form.getFieldValue('test') ?? 'function', v as number | null))]}
                extra={t('emergency.form.durationRange', { min: range.min, max: range.max, unit: t(`emergency.unit.${unit}`) })}
              >
                <InputNumber
                  style={{ width: '100%' }}
                  precision={0}
                  addonAfter={t(`emergency.unit.${unit}`)}
                  data-testid="emergency-form-duration"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                label={t('emergency.field.batteryCells')}
                name="batteryCells"
                required
                rules={[ruleOf((v) => cellsProblem(v as number | null))]}
                extra={t('emergency.form.cellsRange', EMERGENCY_LIMITS.batteryCells)}
              >
                <InputNumber style={{ width: '100%' }} precision={0} data-testid="emergency-form-cells" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.lightType')} name="lightType" required>
                <Radio.Group options={EMERGENCY_LIGHT_TYPES.map((k) => ({ value: k, label: t(`emergency.lightType.${k}`) }))} />
              </Form.Item>
            </Col>
            {test === 'life' && (
              <Col xs={24} md={16}>
                <Form.Item
                  label={t('emergency.field.allowWhileCharging')}
                  name="allowWhileCharging"
                  valuePropName="checked"
                  extra={t('emergency.form.allowWhileChargingHint')}
                >
                  <Switch data-testid="emergency-form-allow-charging" />
                </Form.Item>
              </Col>
            )}
          </Row>
        </Card>

        <Card title={t('emergency.form.recurrence')} variant="borderless" style={{ marginBottom: 16 }}>
          <Typography.Paragraph type="secondary">{t('emergency.form.recurrenceHint')}</Typography.Paragraph>
          <Row gutter={24}>
            <Col xs={24} md={8}>
              <Form.Item label={t('emergency.field.rule')} name="rule">
                <Radio.Group
                  optionType="button"
                  options={EMERGENCY_RECURRENCES.map((r) => ({ value: r, label: t(`emergency.recurrence.${r}`) }))}
                  data-testid="emergency-form-rule"
                />
              </Form.Item>
            </Col>
            {values.rule === 'yearly' && (
              <Col xs={12} md={4}>
                <Form.Item label={t('emergency.field.month')} name="month">
                  <Select options={Array.from({ length: 12 }, (_, i) => ({ value: i + 1, label: String(i + 1) }))} />
                </Form.Item>
              </Col>
            )}
            {values.rule !== 'none' && (
              <>
                <Col xs={12} md={4}>
                  <Form.Item label={t('emergency.field.day')} name="day" extra={t('emergency.form.dayHint')}>
                    <InputNumber min={1} max={28} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item
                    label={t('emergency.field.time')}
                    name="time"
                    rules={[{ pattern: /^([01][0-9]|2[0-3]):[0-5][0-9]$/, message: t('emergency.form.timeFormat') }]}
                  >
                    <Input placeholder="02:00" />
                  </Form.Item>
                </Col>
              </>
            )}
          </Row>
          <Row gutter={24}>
            {METRE_FIELDS.map(({ name, label, hint }) => (
              <Col xs={12} md={6} key={name}>
                <Form.Item label={t(label)} name={name} extra={t(hint)}>
                  <InputNumber min={EMERGENCY_LIMITS[name].min} max={EMERGENCY_LIMITS[name].max} addonAfter="m" style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Card>

        <Space>
          <Button type="primary" onClick={() => void submit()} loading={save.isPending} data-testid="emergency-form-save">
            {t('emergency.form.save')}
          </Button>
          <Button onClick={() => void navigate(taskId && projectId ? taskPath({ id: taskId, projectId }) : '/emergency/set')}>
            {t('emergency.cancel')}
          </Button>
        </Space>
      </Form>
    </PageContainer>
  );
}
