import { FileImageOutlined } from '@ant-design/icons';

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
