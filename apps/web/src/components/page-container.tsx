import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Space, Spin } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import './page-container.css';

/** What the shell tells a page: how wide the side menu is (0 on a phone), and where to leave room for a footer bar. */
export interface ShellFrame {
  siderWidth: number;
  setFooterBar(shown: boolean): void;
}

export const ShellFrameContext = createContext<ShellFrame>({ siderWidth: 0, setFooterBar: () => undefined });

export interface PageContainerProps {
  /** The page's title; `false` draws no heading line. */
  title?: ReactNode;
  subTitle?: ReactNode;
  tags?: ReactNode;
  /** Actions at the end of the heading line. */
  extra?: ReactNode;
  /** A line of explanation under the title. */
  content?: ReactNode;
  /** Tabs along the bottom of the header (`PageTabs`, which the two pages with tabs import: no other page loads antd's Tabs). */
  tabs?: ReactNode;
  onBack?: () => void;
  /** Buttons on a bar fixed along the bottom of the window (a form's save and cancel). */
  footer?: ReactNode;
  /** A spinner in place of the content. */
  loading?: boolean;
  children?: ReactNode;
}

/** Below this width the header stacks its parts (as antd's PageHeader did). */
const COMPACT_BELOW_PX = 768;

/**
 * A page's frame: heading (back arrow, title, tags, actions), a line of explanation, tabs, then the content. It
 * draws the DOM and class names antd's PageHeader and pro-components' PageContainer drew, with the shell's
 * stylesheet (page-container.css), so the pages look as they did without loading pro-layout.
 */
export function PageContainer({
  title,
  subTitle,
  tags,
  extra,
  content,
  tabs,
  onBack,
  footer,
  loading = false,
  children,
}: PageContainerProps) {
  const header = useRef<HTMLDivElement>(null);
  const compact = useCompact(header);
  const hasHeading = Boolean(title || subTitle || tags || extra);
  const hasHeader = hasHeading || Boolean(content) || Boolean(tabs);

  return (
    <>
      <div className={footer ? 'ant-pro-page-container ant-pro-page-container-with-footer' : 'ant-pro-page-container'}>
        {hasHeader ? (
          <div
            ref={header}
            className={[
              'ant-page-header',
              'ant-pro-page-container-warp-page-header',
              tabs && 'ant-page-header-has-footer',
              compact && 'ant-page-header-compact',
              'ant-page-header-ghost',
            ]
              .filter(Boolean)
              .join(' ')}
          >
            {hasHeading && (
              <div className="ant-page-header-heading">
                <div className="ant-page-header-heading-left">
                  {onBack && (
                    <div className="ant-page-header-back">
                      <div role="button" className="ant-page-header-back-button" aria-label="back" onClick={onBack}>
                        <ArrowLeftOutlined />
                      </div>
                    </div>
                  )}
                  {title && (
                    <span className="ant-page-header-heading-title" title={typeof title === 'string' ? title : undefined}>
                      {title}
                    </span>
                  )}
                  {subTitle && (
                    <span className="ant-page-header-heading-sub-title" title={typeof subTitle === 'string' ? subTitle : undefined}>
                      {subTitle}
                    </span>
                  )}
                  {tags && <span className="ant-page-header-heading-tags">{tags}</span>}
                </div>
                {extra && (
                  <span className="ant-page-header-heading-extra">
                    <Space>{extra}</Space>
                  </span>
                )}
              </div>
            )}
            {content && (
              <div className="ant-page-header-content">
                <div className="ant-pro-page-container-detail">
                  <div className="ant-pro-page-container-main">
                    <div className="ant-pro-page-container-row">
                      <div className="ant-pro-page-container-content">{content}</div>
                    </div>
                  </div>
                </div>
              </div>
            )}
            {tabs && <div className="ant-page-header-footer">{tabs}</div>}
          </div>
        ) : (
          // The frame's gap above a page without a heading (the home page).
          <div className="ant-page-header-no-children" />
        )}
        {(loading || children) && (
          <div className="ant-pro-grid-content">
            <div className="ant-pro-grid-content-children">
              {loading ? (
                <div className="lg-page-loading">
                  <Spin size="large" />
                </div>
              ) : (
                <div className="ant-pro-page-container-children-container">{children}</div>
              )}
            </div>
          </div>
        )}
      </div>
      {footer && <FooterBar>{footer}</FooterBar>}
    </>
  );
}

/** The bar of a page's form buttons, fixed along the bottom of the window beside the side menu. */
function FooterBar({ children }: { children: ReactNode }) {
  const { siderWidth, setFooterBar } = useContext(ShellFrameContext);
  useEffect(() => {
    setFooterBar(true);
    return () => setFooterBar(false);
  }, [setFooterBar]);
  return (
    <div className="ant-pro-footer-bar" style={{ width: siderWidth ? `calc(100% - ${siderWidth}px)` : '100%' }}>
      <div className="ant-pro-footer-bar-left" />
      <div className="ant-pro-footer-bar-right">{children}</div>
    </div>
  );
}

function useCompact(element: React.RefObject<HTMLElement | null>): boolean {
  const [compact, setCompact] = useState(false);
  useLayoutEffect(() => {
    const node = element.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) =>
      setCompact(((entry?.target as HTMLElement | undefined)?.offsetWidth ?? COMPACT_BELOW_PX) < COMPACT_BELOW_PX),
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return compact;
}
