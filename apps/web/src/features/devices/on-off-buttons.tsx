import { Button, Space } from 'antd';

/** The on and off buttons of a control over several devices at once (a zone, a selection on the plan). */
export function OnOffButtons({
  disabled,
  loading,
  onSwitch,
  labels,
  testIdPrefix,
}: {
  disabled: boolean;
  loading: boolean;
  onSwitch: (on: boolean) => void;
  labels: { on: string; off: string };
  /** `${testIdPrefix}-on` and `${testIdPrefix}-off`, which the browser journeys press. */
  testIdPrefix: string;
}) {
  return (
    <Space wrap>
      <Button type="primary" disabled={disabled} loading={loading} onClick={() => onSwitch(true)} data-testid={`${testIdPrefix}-on`}>
        {labels.on}
      </Button>
      <Button disabled={disabled} loading={loading} onClick={() => onSwitch(false)} data-testid={`${testIdPrefix}-off`}>
        {labels.off}
      </Button>
    </Space>
  );
}
