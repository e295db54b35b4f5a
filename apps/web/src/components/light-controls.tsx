import { useRef, useState, type ComponentPropsWithRef, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import { useTranslation } from 'react-i18next';
import type { LightFieldProps } from './light-form.ts';
import './light-controls.css';

/*
 * Controls for the pages before sign-in, drawn as antd draws its own (same sizes, colours and icons) without
 * loading antd: the sign-in page must stay small on the wire. The signed-in app keeps antd.
 */

export type LightSize = 'large' | 'middle';

/** The size of the fields and buttons: smaller in a compact (short) window. */
export function lightSize(compact: boolean): LightSize {
  return compact ? 'middle' : 'large';
}

function svgChildren(nodes: AbstractNode[] | undefined): ReactNode {
  return nodes?.map((node, index) =>
    node.tag === 'path' ? <path key={index} d={node.attrs.d} /> : <g key={index}>{svgChildren(node.children)}</g>,
  );
}

/** An icon of @ant-design/icons-svg in antd's markup (`anticon anticon-<name>`), named as antd names it. */
export function LightIcon({ icon, spin }: { icon: IconDefinition; spin?: boolean }) {
  const node = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span role="img" aria-label={icon.name} className={`anticon anticon-${icon.name}${spin ? ' lg-icon--spin' : ''}`}>
      <svg viewBox={node.attrs.viewBox} focusable="false" width="1em" height="1em" fill="currentColor" aria-hidden="true">
        {svgChildren(node.children)}
      </svg>
    </span>
  );
}

/** The problem under a field, announced when it appears. */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return (
    <div id={id} className="lg-field__error" role="alert">
      {text}
    </div>
  );
}

/** Translates a field's problem (a catalogue key or a text as it was given). */
export function useProblemText() {
  const { t } = useTranslation();
  return (problem: LightFieldProps['problem']) =>
    problem ? ('text' in problem ? problem.text : t(problem.key, problem.vars ?? {})) : undefined;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'prefix' | 'name' | 'value' | 'onChange' | 'onBlur'>;

/**
 * A text field with its icon, in antd's affix-wrapper look. Named by its placeholder's text (`aria-label`),
 * its problem tied to it by `aria-describedby`.
 */
export function LightInput({
  field,
  prefix,
  size,
  label,
  password,
  ...rest
}: InputProps & { field: LightFieldProps; prefix: IconDefinition; size: LightSize; label: string; password?: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const problemText = useProblemText()(field.problem);
  return (
    <span className={`lg-input lg-input--${size}${problemText ? ' lg-input--error' : ''}`}>
      <span className="lg-input__prefix">
        <LightIcon icon={prefix} />
      </span>
      <input
        {...rest}
        className="lg-input__control"
        type={password && !visible ? 'password' : (rest.type ?? 'text')}
        name={field.name}
        value={field.value}
        onChange={field.onChange}
        onBlur={field.onBlur}
        placeholder={label}
        aria-label={label}
        aria-required={field.required || undefined}
        aria-invalid={problemText ? true : undefined}
        aria-describedby={problemText ? field.errorId : undefined}
      />
      {password && (
        <span className="lg-input__suffix">
          <button
            type="button"
            className="lg-input__toggle"
            aria-label={t(visible ? 'common.hidePassword' : 'common.showPassword')}
            aria-pressed={visible}
            onClick={() => setVisible(!visible)}
          >
            <LightIcon icon={visible ? EyeOutlined : EyeInvisibleOutlined} />
          </button>
        </span>
      )}
    </span>
  );
}

/** A field of a light form: the control, then the room for its problem (antd's form item). */
export function LightField({ field, children, extra }: { field: LightFieldProps; children: ReactNode; extra?: ReactNode }) {
  const problemText = useProblemText()(field.problem);
  return (
    <div className={`lg-field${problemText ? ' lg-field--error' : ''}${extra ? ' lg-field--extra' : ''}`}>
      {children}
      {problemText && <FieldError id={field.errorId} text={problemText} />}
      {extra && <div className="lg-field__extra">{extra}</div>}
    </div>
  );
}

/** antd's Button, primary or default; `loading` shows the turning icon and keeps a second press out. */
export function LightButton({
  kind = 'default',
  size,
  block,
  loading,
  icon,
  className,
  children,
  ...rest
}: ComponentPropsWithRef<'button'> & {
  kind?: 'primary' | 'default' | 'text';
  size: LightSize;
  block?: boolean;
  loading?: boolean;
  icon?: IconDefinition;
}) {
  const classes = [
    'lg-button',
    `lg-button--${kind}`,
    `lg-button--${size}`,
    block && 'lg-button--block',
    loading && 'lg-button--loading',
    className,
  ];
  return (
    <button type="button" {...rest} className={classes.filter(Boolean).join(' ')} aria-busy={loading || undefined}>
      {loading ? (
        <span className="lg-button__icon" aria-hidden="true">
          <LightIcon icon={LoadingOutlined} spin />
        </span>
      ) : (
        icon && (
          <span className="lg-button__icon">
            <LightIcon icon={icon} />
          </span>
        )
      )}
      <span>{children}</span>
    </button>
  );
}

/** antd's Checkbox: a real checkbox inside its label. */
export function LightCheckbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="lg-checkbox">
      <input type="checkbox" className="lg-checkbox__box" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{children}</span>
    </label>
  );
}

/**
 * Tabs that only switch routes (no panel), as antd's centred Tabs draw them: one stop in the tab order, the
 * arrow keys, Home and End move between the tabs and choose them.
 */
export function LightTabs<K extends string>({
  items,
  active,
  onChange,
  className,
}: {
  items: Array<{ key: K; label: string }>;
  active: K;
  onChange: (key: K) => void;
  className?: string;
}) {
  const list = useRef<HTMLDivElement>(null);
  const choose = (index: number) => {
    const item = items[(index + items.length) % items.length];
    if (!item) return;
    list.current?.querySelectorAll<HTMLElement>('[role=tab]')[items.indexOf(item)]?.focus();
    if (item.key !== active) onChange(item.key);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = items.findIndex((item) => item.key === active);
    const move = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (move === undefined) return;
    event.preventDefault();
    choose(move);
  };
  return (
    <div className={`lg-tabs${className ? ` ${className}` : ''}`}>
      <div className="lg-tabs__list" role="tablist" ref={list} onKeyDown={onKeyDown}>
        {items.map((item) => (
          <div
            key={item.key}
            role="tab"
            aria-selected={item.key === active}
            tabIndex={item.key === active ? 0 : -1}
            className={`lg-tabs__tab${item.key === active ? ' lg-tabs__tab--active' : ''}`}
            onClick={() => item.key !== active && onChange(item.key)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                if (item.key !== active) onChange(item.key);
              }
            }}
          >
            {item.label}
          </div>
        ))}
      </div>
    </div>
  );
}

/** antd's Spin (four turning dots) without antd: for lazily loaded pages and the first screen. */
export function LightSpin({ size = 'default', fullscreen }: { size?: 'small' | 'default' | 'large'; fullscreen?: boolean }) {
  const dots = (
    <span className={`lg-spin lg-spin--${size}`} aria-live="polite" aria-busy="true">
      <i />
      <i />
      <i />
      <i />
    </span>
  );
  return fullscreen ? <div className="lg-spin-fullscreen">{dots}</div> : dots;
}

/** antd's Segmented: one choice of a few, as radio buttons in a grey track. */
export function LightSegmented<K extends string>({
  options,
  value,
  onChange,
  name,
}: {
  options: Array<{ value: K; label: string }>;
  value: K;
  onChange: (value: K) => void;
  name: string;
}) {
  return (
    <div className="lg-segmented" role="radiogroup">
      {options.map((option) => (
        <label key={option.value} className={`lg-segmented__item${option.value === value ? ' lg-segmented__item--selected' : ''}`}>
          <input
            type="radio"
            className="lg-segmented__input"
            name={name}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          <span title={option.label}>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
