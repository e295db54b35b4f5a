import { useContext, type CSSProperties, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import useCardStyle from 'antd/es/card/style';

export interface CardProps {
  title?: ReactNode;
  /** Actions at the end of the title line. */
  extra?: ReactNode;
  size?: 'small';
  variant?: 'outlined' | 'borderless';
  style?: CSSProperties;
  styles?: { body?: CSSProperties };
  'data-testid'?: string;
  children?: ReactNode;
}

/**
 * antd's Card as the floor plan uses it (a title with actions, a body), with antd's class names and card
 * stylesheet. antd's own imports its tabbed mode (antd's Tabs) and loading skeleton on every page that shows a card.
 */
export function Card({ title, extra, size, variant = 'outlined', style, styles, 'data-testid': testId, children }: CardProps) {
  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('card');
  const [wrapCSSVar, hashId, cssVarCls] = useCardStyle(prefixCls);
  const classes = [
    prefixCls,
    variant !== 'borderless' && `${prefixCls}-bordered`,
    size && `${prefixCls}-${size}`,
    direction === 'rtl' && `${prefixCls}-rtl`,
    hashId,
    cssVarCls,
  ];
  return wrapCSSVar(
    <div data-testid={testId} className={classes.filter(Boolean).join(' ')} style={style}>
      {(title || extra) && (
        <div className={`${prefixCls}-head`}>
          <div className={`${prefixCls}-head-wrapper`}>
            {title && <div className={`${prefixCls}-head-title`}>{title}</div>}
            {extra && <div className={`${prefixCls}-extra`}>{extra}</div>}
          </div>
        </div>
      )}
      <div className={`${prefixCls}-body`} style={styles?.body}>
        {children}
      </div>
    </div>,
  );
}
