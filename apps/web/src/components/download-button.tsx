import { DownloadOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import type { useDownload } from '../api/download.ts';

/** A button that saves a file the server writes: it spins while the server is writing it. */
export function DownloadButton({
  download,
  ...button
}: Omit<ButtonProps, 'icon' | 'loading' | 'onClick'> & { download: ReturnType<typeof useDownload> }) {
  return <Button {...button} icon={<DownloadOutlined />} loading={download.isPending} onClick={() => download.mutate()} />;
}
