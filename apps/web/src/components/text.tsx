import { useContext, useLayoutEffect, useRef, useState, type CSSProperties, type MouseEventHandler, type ReactNode } from 'react';
import { ConfigProvider, Tooltip } from 'antd';
import useTypographyStyle from 'antd/es/typography/style';

/**
 * antd's Typography.Text, Paragraph and Link as the app uses them (a colour, bold, one line cut short with its
 * tooltip, a link that runs a handler), with antd's class names and its typography stylesheet. antd's own bring
 * the editable and copyable modes with them, and with those its TextArea and the Input family, on every screen
 * that shows a line of secondary text.
 */
type TextTone = 'secondary' | 'success' | 'warning' | 'danger';

interface TypographyClassOptions {
  type?: TextTone;
  ellipsis?: boolean;
  className?: string;
}

/** The classes antd's Typography gives an element, with its stylesheet registered; and its wrapper for CSS variables. */
function useTypography({ type, ellipsis, className }: TypographyClassOptions): [(node: React.ReactElement) => React.ReactElement, string] {
  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('typography');
  const [wrapCSSVar, hashId, cssVarCls] = useTypographyStyle(prefixCls);
  const classes = [
    prefixCls,
    direction === 'rtl' && `${prefixCls}-rtl`,
    type && `${prefixCls}-${type}`,
    ellipsis && `${prefixCls}-ellipsis ${prefixCls}-ellipsis-single-line`,
    className,
    hashId,
    cssVarCls,
  ];
  return [wrapCSSVar, classes.filter(Boolean).join(' ')];
}

/** Whether the element's text is cut short: its content overflows its box (antd's test). */
function overflows(element: HTMLElement): boolean {
  return element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight;
}

/** Holds whether the text of `ref` is cut short, measured again whenever it changes size or its content changes. */
function useCutShort(ref: React.RefObject<HTMLElement | null>, enabled: boolean, content: ReactNode): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    setCut(overflows(element));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setCut(overflows(element)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled, content]);
  return cut;
}

export interface TextProps {
  type?: TextTone;
  strong?: boolean;
  /** One line, cut short with an ellipsis; `{ tooltip }` shows the whole text on hover when it is cut. */
  ellipsis?: boolean | { tooltip: ReactNode };
  style?: CSSProperties;
  className?: string;
  children?: ReactNode;
}

/** A run of text in antd's typography (Typography.Text). */
export function Text({ type, strong, ellipsis, style, className, children }: TextProps) {
  const [wrap, classes] = useTypography({ type, ellipsis: Boolean(ellipsis), className });
  const ref = useRef<HTMLSpanElement>(null);
  const tooltip = typeof ellipsis === 'object' ? ellipsis.tooltip : undefined;
  const cut = useCutShort(ref, tooltip !== undefined, children);
  const text = (
    <span ref={ref} className={classes} style={style}>
      {strong ? <strong>{children}</strong> : children}
    </span>
  );
  return wrap(
    tooltip === undefined ? (
      text
    ) : (
      <Tooltip title={tooltip} open={cut ? undefined : false}>
        {text}
      </Tooltip>
    ),
  );
}

/** A paragraph in antd's typography (Typography.Paragraph). */
export function Paragraph({ type, style, className, children }: Pick<TextProps, 'type' | 'style' | 'className' | 'children'>) {
  const [wrap, classes] = useTypography({ type, className });
  return wrap(
    <div className={classes} style={style}>
      {children}
    </div>,
  );
}

/** A link in antd's typography that runs a handler (Typography.Link without an address). */
export function TextLink({ onClick, children }: { onClick: MouseEventHandler<HTMLAnchorElement>; children?: ReactNode }) {
  const [wrap, classes] = useTypography({});
  return wrap(
    <a className={classes} onClick={onClick}>
      {children}
    </a>,
  );
}
