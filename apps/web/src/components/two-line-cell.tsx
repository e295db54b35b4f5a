import { Space, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A table cell with a second, smaller line under it, so a related detail needs no column of its own. */
export function WithSecondLine({ first, second }: { first: ReactNode; second?: ReactNode }) {
  return (
    <Space direction="vertical" size={0}>
      <span>{first}</span>
      {second ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {second}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
