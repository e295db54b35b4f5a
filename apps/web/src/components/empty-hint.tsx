import { Empty } from 'antd';

/** An empty table that says what to do next instead of only "No data". */
export function EmptyHint({ text }: { text: string }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span style={{ maxWidth: 520, display: 'inline-block' }}>{text}</span>} />
  );
}
