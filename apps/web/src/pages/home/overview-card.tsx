import { Card, Statistic } from 'antd';
import { ArrowRightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** A card of the overview: its title links into the page that shows the whole of it. */
export function OverviewCard({ id, title, to, children }: { id: string; title: string; to: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card
      title={title}
      variant="borderless"
      style={{ height: '100%' }}
      extra={
        <Link to={to} data-testid={`home-open-${id}`}>
          {t('home.open')} <ArrowRightOutlined />
        </Link>
      }
      data-testid={`home-${id}`}
    >
      {children}
    </Card>
  );
}

/** One count of a card, with a test id the browser tests read. */
export function Figure({ id, title, value, danger }: { id: string; title: string; value: number | undefined; danger?: boolean }) {
  return (
    <Statistic
      title={title}
      value={value ?? '-'}
      valueStyle={{ fontSize: 26, color: danger && value ? '#cf1322' : undefined }}
      valueRender={(node) => <span data-testid={`home-${id}`}>{node}</span>}
    />
  );
}
