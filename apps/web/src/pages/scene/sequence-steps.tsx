import { Button, Card, InputNumber, Space, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SCENE_LIMITS, type Gateway } from '@lumigrid/contract/browser';
import type { MapCatalog } from '../../features/scenes/catalog.ts';
import type { EditorStep } from '../../features/scenes/editor-state.ts';
import { MemberList } from './member-list.tsx';

interface Props {
  steps: EditorStep[];
  active: number;
  onActivate(index: number): void;
  onChange(steps: EditorStep[]): void;
  catalog: MapCatalog;
  gateways: ReadonlyMap<string, Gateway>;
}

/** Moves one item of a list up or down by one place. */
export function moveItem<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/**
 * The steps of a sequence, in the order they run: each step's members take their actions, then the sequence
 * holds for the step's seconds before the next. The picker adds to the highlighted step.
 */
export function SequenceSteps({ steps, active, onActivate, onChange, catalog, gateways }: Props) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<EditorStep>) => onChange(steps.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12} data-testid="sequence-steps">
      {steps.map((step, index) => (
        <Card
          key={index}
          size="small"
          onClick={() => onActivate(index)}
          style={{ borderColor: index === active ? '#1677ff' : undefined, cursor: index === active ? undefined : 'pointer' }}
          title={
            <Space>
              <Typography.Text strong>{t('scenes.sequence.step', { n: index + 1 })}</Typography.Text>
              {index === active && <Typography.Text type="secondary">{t('scenes.sequence.addsHere')}</Typography.Text>}
            </Space>
          }
          extra={
            <Space size={4} onClick={(e) => e.stopPropagation()}>
              <Typography.Text type="secondary">{t('scenes.sequence.hold')}</Typography.Text>
              <InputNumber
                size="small"
                min={0}
                max={SCENE_LIMITS.holdS.max}
                precision={0}
                value={step.holdS}
                addonAfter={t('scenes.seconds')}
                style={{ width: 120 }}
                onChange={(holdS) => set(index, { holdS: holdS ?? 0 })}
                data-testid={`step-hold-${index}`}
              />
              <Tooltip title={t('scenes.sequence.up')}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('scenes.sequence.up')}
                  disabled={index === 0}
                  onClick={() => {
                    onChange(moveItem(steps, index, -1));
                    onActivate(index - 1);
                  }}
                />
              </Tooltip>
              <Tooltip title={t('scenes.sequence.down')}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('scenes.sequence.down')}
                  disabled={index === steps.length - 1}
                  onClick={() => {
                    onChange(moveItem(steps, index, 1));
                    onActivate(index + 1);
                  }}
                />
              </Tooltip>
              <Tooltip title={t('scenes.sequence.remove')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('scenes.sequence.remove')}
                  disabled={steps.length <= 1}
                  onClick={() => {
                    onChange(steps.filter((_, i) => i !== index));
                    onActivate(Math.max(0, Math.min(active, steps.length - 2)));
                  }}
                />
              </Tooltip>
            </Space>
          }
        >
          <MemberList
            members={step.members}
            catalog={catalog}
            gateways={gateways}
            onChange={(members) => set(index, { members })}
            testId={`step-members-${index}`}
          />
        </Card>
      ))}
      <Button
        icon={<PlusOutlined />}
        disabled={steps.length >= SCENE_LIMITS.steps.max}
        onClick={() => {
          onChange([...steps, { members: [], holdS: 10 }]);
          onActivate(steps.length);
        }}
        data-testid="step-add"
      >
        {t('scenes.sequence.add')}
      </Button>
    </Space>
  );
}
