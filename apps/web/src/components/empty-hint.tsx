import type { CSSProperties } from 'react';
import { Button, Empty } from 'antd';
import { Link } from 'react-router';

/** An empty table that says what to do next instead of only "No data". */
export function EmptyHint({ text }: { text: string }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span style={{ maxWidth: 520, display: 'inline-block' }}>{text}</span>} />
  );
}

/** A page with nothing to show yet, and a button to the page where that is made (none without `to`). */
export function EmptyLead({
  description,
  to,
  action,
  style = { margin: '96px 0' },
  testId,
}: {
  description: string;
  to: string | undefined;
  action: string;
  style?: CSSProperties;
  testId?: string;
}) {
  return (
    <Empty description={description} style={style} data-testid={testId}>
      {to && (
        <Link to={to}>
          <Button type="primary">{action}</Button>
        </Link>
      )}
    </Empty>
  );
}
