import { FileImageOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';

/** A news item's cover in a table row, or an empty frame of the same size when it has none. */
export function CoverThumb({ cover }: { cover: string | null | undefined }) {
  return cover ? (
    <img className="lg-push-thumb" src={cover} alt="" />
  ) : (
    <span className="lg-push-thumb lg-push-thumb--empty">
      <FileImageOutlined />
    </span>
  );
}

/** The cover column that leads both news tables (the author's list and the review queue). */
export function coverColumn<T extends { cover: string | null | undefined }>(title: string): ProColumns<T> {
  return { title, dataIndex: 'cover', width: 112, render: (_, n) => <CoverThumb cover={n.cover} /> };
}
