import type { TFunction } from 'i18next';
import type { SceneAction, SceneFields } from '@lumigrid/contract/browser';
import { triggersToSlots, triggersToSunRows, WEEKDAYS_MONDAY_FIRST } from '../../features/scenes/timing.ts';

/** A member's action in a few words: "On · 80% · 4000 K", "Off", "Channel 1 on, channel 2 off". */
export function actionText(t: TFunction, action: SceneAction): string {
  if (action.channels)
    return action.channels.map((on, i) => t(on ? 'scenes.text.channelOn' : 'scenes.text.channelOff', { n: i + 1 })).join(', ');
  if (action.position !== undefined) return t('scenes.text.position', { percent: action.position });
  if (!action.on) return t('scenes.target.off');
  return [
    t('scenes.target.on'),
    ...(action.percent !== undefined ? [`${action.percent}%`] : []),
    ...(action.kelvin !== undefined ? [`${action.kelvin} K`] : []),
    ...(action.color ? [action.color] : []),
  ].join(' · ');
}

/** When a timed scene runs, as one line per time: "18:00–23:00", "Switch on 15 min before sunset", "2026-03-04 21:15". */
export function timingLines(t: TFunction, fields: SceneFields): string[] {
  switch (fields.kind) {
    case 'schedule':
    case 'groupSchedule':
      return triggersToSlots(fields.triggers).map((slot) => `${slot.start ?? '?'} – ${slot.end ?? t('scenes.text.noEnd')}`);
    case 'sun':
      return triggersToSunRows(fields.triggers).map((row) =>
        t(`scenes.text.sun.${row.event}.${row.direction}`, { then: t(`scenes.then.${row.then}`), minutes: row.minutes }),
      );
    case 'once':
      return fields.triggers.map((trigger) => `${fields.from ?? ''} ${trigger.at}`);
    default:
      return [];
  }
}

/** Repeat days Monday first: "Mon, Tue, Wed", or "every day". */
export function daysText(t: TFunction, days: readonly number[]): string {
  if (days.length === 7) return t('scenes.timing.everyDay');
  return WEEKDAYS_MONDAY_FIRST.filter((d) => days.includes(d))
    .map((d) => t(`scenes.weekday.${d}`))
    .join(', ');
}
