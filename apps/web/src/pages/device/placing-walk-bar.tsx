import { Alert, Button, Progress, Space, Typography } from 'antd';
import { BulbOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PlacingWalk } from '../../features/devices/use-placing-walk.ts';
import { useReportedHeight } from '../../components/use-reported-height.ts';
import './plan-selection.css';

interface Props {
  walk: PlacingWalk;
  gatewayName: string;
  onEnd: () => void;
  /** A phone: the plan shrinks so this sits at the bottom of the screen, within reach of the thumb. */
  sheet?: boolean;
  /** The bar's height as it changes (the plan above a phone's sheet gives up that much). */
  onHeight?: (px: number) => void;
}

/**
 * The placing walk under the plan: which device blinks now and what to do (tap its place on the plan), with
 * "blink again", "skip" and "done"; when every device is handled, how many were placed.
 */
export function PlacingWalkBar({ walk, gatewayName, onEnd, sheet = false, onHeight }: Props) {
  const { t } = useTranslation();
  const bar = useReportedHeight<HTMLElement>(onHeight);

  const { current } = walk;
  return (
    <section
      ref={bar}
      className={sheet ? 'lg-plan-selection lg-plan-selection-sheet' : 'lg-plan-selection'}
      aria-label={t('deviceMap.placing.label', { name: gatewayName })}
      data-testid="placing-walk"
    >
      <div className="lg-plan-selection-head">
        <Typography.Text strong role="status" data-testid="placing-step">
          {walk.loading
            ? t('deviceMap.placing.loading')
            : current
              ? t('deviceMap.placing.step', { number: walk.number, total: walk.total, name: current.name })
              : t('deviceMap.placing.done', { count: walk.total, name: gatewayName })}
        </Typography.Text>
        {current && (
          <Progress
            percent={Math.round(((walk.number - 1) / Math.max(1, walk.total)) * 100)}
            size="small"
            showInfo={false}
            aria-label={t('deviceMap.placing.progress')}
          />
        )}
      </div>
      {current && (
        <>
          <Typography.Paragraph
            style={{ margin: '8px 0 0' }}
          >{`${t('deviceMap.placing.tap')} ${t('deviceMap.longPress')}`}</Typography.Paragraph>
          {walk.blinkProblem && (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 8 }}
              message={t('deviceMap.placing.noBlink', { problem: walk.blinkProblem })}
              data-testid="placing-no-blink"
            />
          )}
        </>
      )}
      <div className="lg-plan-selection-actions">
        <Space wrap>
          {current && (
            <>
              <Button icon={<BulbOutlined />} onClick={walk.blink} data-testid="placing-blink">
                {t('deviceMap.placing.blink')}
              </Button>
              <Button onClick={walk.skip} data-testid="placing-skip">
                {t('deviceMap.placing.skip')}
              </Button>
            </>
          )}
          <Button type={current ? 'default' : 'primary'} onClick={onEnd} data-testid="placing-end">
            {current ? t('deviceMap.placing.stop') : t('deviceMap.placing.finish')}
          </Button>
        </Space>
      </div>
    </section>
  );
}
