import type { ReactNode } from 'react';
import { Card, Form, Input, InputNumber, Segmented, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SCENE_LIMITS, sceneNameProblem, type ProjectTree, type SceneKind } from '@lumigrid/contract/browser';
import { ProjectSelect } from '../../features/projects/project-select.tsx';
import type { EditorState } from '../../features/scenes/editor-state.ts';
import { codeText } from './scene-results.tsx';
import { DateRangeField, DaysField, OnceFields, SlotsEditor, SunRowsEditor } from './timing-fields.tsx';

/** The editor routes of spec section 2; the schedule editor makes schedules and group schedules. */
export type EditorRoute = 'manual' | 'schedule' | 'sun' | 'once' | 'sequence';

interface SectionProps {
  state: EditorState;
  update$(patch: Partial<EditorState>): void;
  /** The user tried to save: every problem shows. */
  submitted: boolean;
}

/** A sequence's DALI scene and sequence numbers, each within the contract's range; an emptied one falls back. */
const SEQUENCE_NUMBERS = [
  { key: 'daliScene', label: 'scenes.field.daliScene', fallback: 0, testId: 'scene-dali' },
  { key: 'sequenceNo', label: 'scenes.field.sequenceNo', fallback: 1, testId: 'scene-sequence-no' },
] as const;

/**
 * The scene itself: its project (fixed once saved), name (sceneNameProblem), fade time, the schedule
 * editor's switch between schedule and group schedule, and a sequence's DALI scene and sequence numbers.
 */
export function EditorBasics({
  state,
  update$,
  submitted,
  route,
  editing,
  tree,
  projectId,
  onProjectChange,
  onKindChange,
  picture,
}: SectionProps & {
  route: EditorRoute;
  editing: boolean;
  tree: ProjectTree | undefined;
  projectId: string | undefined;
  onProjectChange(projectId: string): void;
  onKindChange(kind: SceneKind): void;
  /** The picture picker. */
  picture?: ReactNode;
}) {
  const { t } = useTranslation();
  const { kind } = state;
  const nameProblem = sceneNameProblem(state.name);
  const nameError = (submitted || state.name !== '') && nameProblem ? codeText(t, nameProblem) : undefined;
  return (
    <Card title={t('scenes.section.basics')} size="small">
      <Form layout="vertical" requiredMark={false} component="div">
        <div style={{ display: 'flex', flexWrap: 'wrap', columnGap: 24 }}>
          <Form.Item label={t('scenes.project')} style={{ minWidth: 240 }}>
            <ProjectSelect tree={tree} value={projectId} disabled={editing} onChange={onProjectChange} />
          </Form.Item>
          <Form.Item
            label={t('scenes.field.name')}
            validateStatus={nameError ? 'error' : undefined}
            help={nameError ?? t('scenes.nameRule')}
            style={{ width: 300 }}
          >
            <Input
              value={state.name}
              maxLength={40}
              placeholder={t('scenes.namePlaceholder')}
              onChange={(e) => update$({ name: e.target.value })}
              data-testid="scene-name"
            />
          </Form.Item>
          <Form.Item label={t('scenes.field.fade')} help={t('scenes.fadeHint', { max: SCENE_LIMITS.fadeS.max })}>
            <InputNumber
              min={0}
              max={SCENE_LIMITS.fadeS.max}
              precision={0}
              value={state.fadeS}
              addonAfter={t('scenes.seconds')}
              style={{ width: 150 }}
              onChange={(fadeS) => update$({ fadeS: fadeS ?? 0 })}
              data-testid="scene-fade"
            />
          </Form.Item>
          {route === 'schedule' && (
            <Form.Item label={t('scenes.field.kind')}>
              <Segmented
                value={kind}
                disabled={editing}
                onChange={(value) => onKindChange(value as SceneKind)}
                options={[
                  { value: 'schedule', label: t('scenes.kind.schedule') },
                  { value: 'groupSchedule', label: t('scenes.kind.groupSchedule') },
                ]}
                data-testid="scene-kind-switch"
              />
            </Form.Item>
          )}
          {kind === 'sequence' &&
            SEQUENCE_NUMBERS.map(({ key, label, fallback, testId }) => (
              <Form.Item
                key={key}
                label={t(label)}
                help={t('scenes.rangeHint', { min: SCENE_LIMITS[key].min, max: SCENE_LIMITS[key].max })}
              >
                <InputNumber
                  min={SCENE_LIMITS[key].min}
                  max={SCENE_LIMITS[key].max}
                  precision={0}
                  value={state[key]}
                  onChange={(value) => update$({ [key]: value ?? fallback })}
                  data-testid={testId}
                />
              </Form.Item>
            ))}
        </div>
        {picture && <Form.Item label={t('scenes.picture.title')}>{picture}</Form.Item>}
      </Form>
    </Card>
  );
}

/** When a timed scene runs: time slots, sun times or a date and time; repeat days, dates and the holiday filter. */
export function EditorTiming({ state, update$, submitted }: SectionProps) {
  const { t } = useTranslation();
  const { kind } = state;
  return (
    <Card title={t('scenes.section.when')} size="small">
      <Form layout="vertical" component="div">
        {(kind === 'schedule' || kind === 'groupSchedule') && (
          <Form.Item label={t('scenes.timing.slots')}>
            <SlotsEditor slots={state.slots} showProblems={submitted} onChange={(slots) => update$({ slots })} />
          </Form.Item>
        )}
        {kind === 'sun' && (
          <Form.Item label={t('scenes.timing.sunTimes')}>
            <SunRowsEditor rows={state.sunRows} onChange={(sunRows) => update$({ sunRows })} />
          </Form.Item>
        )}
        {kind === 'once' && (
          <Form.Item label={t('scenes.timing.onceAt')}>
            <OnceFields
              date={state.onceDate}
              time={state.onceTime}
              showProblems={submitted}
              onChange={({ date, time }) => update$({ onceDate: date, onceTime: time })}
            />
          </Form.Item>
        )}
        {kind !== 'once' && (
          <>
            <Form.Item
              label={t('scenes.timing.days')}
              validateStatus={submitted && state.days.length === 0 ? 'error' : undefined}
              help={submitted && state.days.length === 0 ? codeText(t, 310006) : undefined}
            >
              <DaysField days={state.days} onChange={(days) => update$({ days })} />
            </Form.Item>
            <div style={{ display: 'flex', flexWrap: 'wrap', columnGap: 32 }}>
              <Form.Item label={t('scenes.timing.dates')} help={t('scenes.timing.datesHint')}>
                <DateRangeField from={state.from} to={state.to} onChange={(range) => update$(range)} />
              </Form.Item>
              <Form.Item label={t('scenes.timing.holidays')} help={t('scenes.timing.holidaysHint')}>
                <Switch checked={state.skipHolidays} onChange={(skipHolidays) => update$({ skipHolidays })} data-testid="scene-holidays" />
              </Form.Item>
            </div>
          </>
        )}
      </Form>
    </Card>
  );
}
