import { describe, expect, it, vi } from 'vitest';
import { sendOnEnter, sendsForm } from './form-modal.tsx';

/** A key press as React hands it over, on an element described by its tag, type and attributes. */
function press(
  target: { tagName: string; type?: string; attributes?: Record<string, string> },
  options: { key?: string; isComposing?: boolean; defaultPrevented?: boolean; shiftKey?: boolean } = {},
) {
  const element = { tagName: target.tagName, type: target.type ?? '', getAttribute: (name: string) => target.attributes?.[name] ?? null };
  return {
    key: options.key ?? 'Enter',
    shiftKey: options.shiftKey ?? false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    target: element as unknown as EventTarget,
    nativeEvent: { isComposing: options.isComposing ?? false, defaultPrevented: options.defaultPrevented ?? false },
  };
}

describe('Enter in a dialog form', () => {
  it('sends the form from a text, number or password field', () => {
    expect(sendsForm(press({ tagName: 'INPUT', type: 'text' }))).toBe(true);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'password' }))).toBe(true);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'text', attributes: { role: 'spinbutton' } }))).toBe(true);
  });

  it('leaves Enter to an input method composing CJK text, and to a control that already used it', () => {
    expect(sendsForm(press({ tagName: 'INPUT', type: 'text' }, { isComposing: true }))).toBe(false);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'search' }, { defaultPrevented: true }))).toBe(false);
  });

  it('leaves Enter to text areas, buttons, checkboxes and an open select, and ignores other keys', () => {
    expect(sendsForm(press({ tagName: 'TEXTAREA' }))).toBe(false);
    expect(sendsForm(press({ tagName: 'BUTTON', type: 'button' }))).toBe(false);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'checkbox' }))).toBe(false);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'search', attributes: { role: 'combobox', 'aria-expanded': 'true' } }))).toBe(false);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'search', attributes: { role: 'combobox', 'aria-expanded': 'false' } }))).toBe(true);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'text' }, { shiftKey: true }))).toBe(false);
    expect(sendsForm(press({ tagName: 'INPUT', type: 'text' }, { key: 'a' }))).toBe(false);
  });
});

describe('Enter in a drawer form', () => {
  it('sends the form once from a field, keeping the browser from sending it again, and leaves a checkbox alone', () => {
    const send = vi.fn();
    const preventDefault = vi.fn();
    const onKeyDown = sendOnEnter(send);
    onKeyDown({ ...press({ tagName: 'INPUT', type: 'text' }), preventDefault } as unknown as Parameters<typeof onKeyDown>[0]);
    onKeyDown({ ...press({ tagName: 'INPUT', type: 'checkbox' }), preventDefault } as unknown as Parameters<typeof onKeyDown>[0]);
    expect([send.mock.calls.length, preventDefault.mock.calls.length]).toEqual([1, 1]);
  });
});
