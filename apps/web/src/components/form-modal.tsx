import { useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';

/** Fields a person types into or picks from, in the order a keyboard reaches them. */
const FIELD = 'input:not([type=hidden]):not(:disabled), textarea:not(:disabled)';

/** Inputs where Enter means something of their own (toggle, pick a file) rather than "send the form". */
const OWN_ENTER = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color']);

/** Whether this key press asks to send the dialog's form: Enter in a text-like field, not mid-composition. */
export function sendsForm(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey' | 'target'> & {
    nativeEvent: { isComposing: boolean; defaultPrevented: boolean };
  },
): boolean {
  if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
  // A CJK input method confirms its candidate with Enter; a select or picker uses it to open or choose.
  if (event.nativeEvent.isComposing || event.nativeEvent.defaultPrevented) return false;
  const target = event.target as HTMLElement;
  if (target.tagName !== 'INPUT') return false;
  const input = target as HTMLInputElement;
  if (OWN_ENTER.has(input.type)) return false;
  return !(input.getAttribute('role') === 'combobox' && input.getAttribute('aria-expanded') === 'true');
}

/** A keydown handler for a form outside a dialog (a drawer's): Enter in a field sends it, as in a dialog. */
export function sendOnEnter(send: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (!sendsForm(event)) return;
    // Also stops the browser's own submit of a one-field form, which would send it twice.
    event.preventDefault();
    send();
  };
}

/**
 * antd's Modal for dialogs that hold a form: when it opens the keyboard is in its first field, and Enter in a
 * field does what the OK button does (antd's OK button sits outside the form, so a browser never submits it).
 * By default it says Cancel and forgets what was typed when it closes.
 */
export function FormModal({
  afterOpenChange,
  modalRender,
  onSubmit,
  cancelText,
  destroyOnHidden = true,
  ...props
}: ModalProps & {
  /** What OK does; a refusal keeps the dialog open (the fields or the server's message say why). */
  onSubmit?: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  const { confirmLoading, okButtonProps } = props;
  const onOk: ModalProps['onOk'] = onSubmit ? () => void onSubmit().catch(() => undefined) : props.onOk;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onOk || confirmLoading || okButtonProps?.disabled) return;
    sendOnEnter(() => onOk(event as unknown as MouseEvent<HTMLButtonElement>))(event);
  };

  return (
    <Modal
      {...props}
      onOk={onOk}
      cancelText={cancelText ?? t('common.cancel')}
      destroyOnHidden={destroyOnHidden}
      afterOpenChange={(open) => {
        // A field that took focus itself (autoFocus) keeps it.
        const focused = document.activeElement;
        if (open && !(focused?.matches(FIELD) && content.current?.contains(focused)))
          Array.from(content.current?.querySelectorAll<HTMLElement>(FIELD) ?? [])
            .find((field) => field.offsetParent !== null)
            ?.focus();
        afterOpenChange?.(open);
      }}
      modalRender={(node) => (
        <div ref={content} onKeyDown={onKeyDown}>
          {modalRender ? modalRender(node) : node}
        </div>
      )}
    />
  );
}
