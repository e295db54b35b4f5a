import { useEffect, useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { valueAge } from '@lumigrid/contract/browser';

/** How often a shown age is counted again. */
const TICK_MS = 10_000;

/** The current time, renewed every `ms`, so an age on screen keeps counting while nothing else changes. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** An age as the reader says it: seconds, minutes, hours, then days. */
export function ageText(t: TFunction, ageMs: number): string {
  const seconds = Math.floor(ageMs / 1000);
  if (seconds < 60) return t('age.seconds', { count: seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t('age.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('age.hours', { count: hours });
  return t('age.days', { count: Math.floor(hours / 24) });
}

/**
 * How old a reported value is ("3 min ago"), marked stale once older than two of its gateway's report
 * intervals (contract valueAge). `markStale` false shows the age only (an offline gateway's last sighting is
 * old by nature; its state says so already).
 */
export function ValueAge({
  at,
  reportIntervalS,
  testId,
  markStale = true,
}: {
  at: string;
  reportIntervalS: number | null;
  testId: string;
  markStale?: boolean;
}) {
  const { t } = useTranslation();
  const now = useNow(TICK_MS);
  const { ageMs, stale } = valueAge(at, reportIntervalS, now);
  return (
    <Space size={4} data-testid={testId}>
      <Typography.Text type="secondary">{ageText(t, ageMs)}</Typography.Text>
      {markStale && stale && (
        <Tag color="warning" bordered={false} data-testid={`${testId}-stale`}>
          {t('age.stale')}
        </Tag>
      )}
    </Space>
  );
}
