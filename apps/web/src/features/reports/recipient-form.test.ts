import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { Recipient } from '@lumigrid/contract/browser';
import { recipientFields, recipientForm } from './recipient-form.ts';

const weekly: Recipient = {
  id: '7',
  projectId: '1',
  name: 'Facility desk',
  mail: 'desk@example.com',
  unit: 'week',
  monthDay: null,
  weekday: 5,
  sendTime: '07:30',
  timeZone: 'Asia/Tokyo',
  contents: ['energy', 'faults'],
  realtimeFaults: true,
  lang: 'ja',
  nextSendAt: '2026-11-27T22:30:00.000Z',
  lastSentAt: null,
  lastError: null,
};

describe('recipientForm', () => {
  it('opens a new recipient on a monthly energy report at 08:00 in the given zone and language', () => {
    const form = recipientForm(undefined, 'en', 'Europe/London');
    expect(form).toMatchObject({ unit: 'month', monthDay: 'first', contents: ['energy'], timeZone: 'Europe/London', lang: 'en' });
    expect(form.sendTime.format('HH:mm')).toBe('08:00');
  });

  it('comes back to the same body for a saved recipient', () => {
    expect(recipientFields(recipientForm(weekly, 'en'))).toEqual({
      name: 'Facility desk',
      mail: 'desk@example.com',
      unit: 'week',
      weekday: 5,
      sendTime: '07:30',
      timeZone: 'Asia/Tokyo',
      contents: ['energy', 'faults'],
      realtimeFaults: true,
      lang: 'ja',
    });
  });
});

describe('recipientFields', () => {
  const form = { ...recipientForm(weekly, 'en'), monthDay: 'last' as const, name: '  Desk  ', mail: ' desk@example.com ' };

  it('sends the day of the week only for weekly reports and the day of the month only for monthly ones', () => {
    expect(recipientFields(form)).toMatchObject({ weekday: 5 });
    expect(recipientFields(form)).not.toHaveProperty('monthDay');
    const monthly = recipientFields({ ...form, unit: 'month' });
    expect(monthly).toMatchObject({ monthDay: 'last' });
    expect(monthly).not.toHaveProperty('weekday');
    const daily = recipientFields({ ...form, unit: 'day' });
    expect(daily).not.toHaveProperty('weekday');
    expect(daily).not.toHaveProperty('monthDay');
  });

  it('trims the name and the address and writes the time as HH:mm', () => {
    expect(recipientFields({ ...form, sendTime: dayjs('2000-01-01T18:05') })).toMatchObject({
      name: 'Desk',
      mail: 'desk@example.com',
      sendTime: '18:05',
    });
  });
});
