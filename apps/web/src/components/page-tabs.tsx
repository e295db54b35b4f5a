import type { ReactNode } from 'react';
import { Tabs } from 'antd';

export interface PageTabsProps {
  items: Array<{ key: string; tab: ReactNode }>;
  activeKey: string;
  onChange: (key: string) => void;
}

/** Tabs along the bottom of a page's header (PageContainer's `tabs`), as pro-components' PageContainer drew them. */
export function PageTabs({ items, activeKey, onChange }: PageTabsProps) {
  return (
    <Tabs
      className="ant-pro-page-container-tabs"
      activeKey={activeKey}
      onChange={onChange}
      items={items.map((item) => ({ key: item.key, label: item.tab }))}
    />
  );
}
