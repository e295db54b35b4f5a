// Checks of a page as a phone shows it (issue 28): each runs in the page (`page.evaluate(check)`), so each is
// self-contained, and answers the problems it found in words a person can act on (empty when there are none).

/**
 * The page scrolls sideways: the document is wider than the window. Names the outermost elements that stick
 * out on the right (an element inside a box that scrolls sideways on its own, such as a wide chart's, is that
 * box's business, not the page's).
 */
export function sidewaysOverflowInPage(): string[] {
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth <= width + 1) return [];
  const describe = (element: Element) => {
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    const testId = element.getAttribute('data-testid');
    return `<${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}${testId ? ` data-testid=${testId}` : ''}>`;
  };
  const scrollsOnItsOwn = (element: Element) => {
    for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden' || overflow === 'clip') return true;
    }
    return false;
  };
  const culprits: string[] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1 || scrollsOnItsOwn(element)) continue;
    // Only the outermost: a child of a culprit sticks out with it.
    if (element.parentElement && element.parentElement.getBoundingClientRect().right > width + 1 && !scrollsOnItsOwn(element.parentElement))
      continue;
    culprits.push(`${describe(element)} reaches ${Math.round(box.right)} px`);
    if (culprits.length === 5) break;
  }
  return [`the page scrolls sideways: ${root.scrollWidth} px wide in a ${width} px window`, ...culprits];
}

/**
 * Controls a finger cannot hit reliably: smaller than `minimum` px (44 by default, Apple's and WCAG 2.5.5's
 * figure) in width or height AND crowded, i.e. another control lies inside the `minimum` square centred on it.
 * A small control with room around it is hit by a finger aimed near it (Chromium's touch adjustment, and WCAG
 * 2.5.8's spacing rule), so it passes; links inside running text are exempt as WCAG exempts them.
 */
export function smallTouchTargetsInPage(minimum = 44): string[] {
  const SELECTOR = [
    'a[href]',
    'button',
    'input:not([type=hidden])',
    'select',
    'textarea',
    '[role=button]',
    '[role=checkbox]',
    '[role=switch]',
    '[role=radio]',
    '[role=tab]',
    '[role=menuitem]',
    '[role=slider]',
    '[role=combobox]',
    '.ant-select-selector',
    '.ant-pagination-item',
  ].join(',');
  // The box a tap lands on: a wrapping label or antd wrapper counts, the hidden native input inside it does not.
  const targetOf = (element: Element): Element =>
    element.closest('label, .ant-checkbox-wrapper, .ant-radio-wrapper, .ant-radio-button-wrapper, .ant-select, .ant-picker') ?? element;
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (box.right < 0 || box.left > window.innerWidth) return false;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.pointerEvents === 'none' || element.closest('[aria-hidden=true], [inert]')) return false;
    // Shown only on hover (antd's number steppers): not there for a finger.
    for (let e: Element | null = element; e; e = e.parentElement) if (getComputedStyle(e).opacity === '0') return false;
    return true;
  };
  const inRunningText = (element: Element) =>
    element.tagName === 'A' &&
    getComputedStyle(element).display === 'inline' &&
    (element.parentElement?.textContent ?? '').trim().length > (element.textContent ?? '').trim().length;
  const targets = Array.from(new Set(Array.from(document.querySelectorAll(SELECTOR)).map(targetOf))).filter(visible);
  const boxes = targets.map((element) => ({ element, box: element.getBoundingClientRect() }));
  const problems: string[] = [];
  for (const { element, box } of boxes) {
    if ((box.width >= minimum - 0.5 && box.height >= minimum - 0.5) || inRunningText(element)) continue;
    const cx = box.left + box.width / 2;
    const cy = box.top + box.height / 2;
    const half = minimum / 2;
    const crowded = boxes.some(
      (other) =>
        other.element !== element &&
        !other.element.contains(element) &&
        !element.contains(other.element) &&
        other.box.left < cx + half &&
        other.box.right > cx - half &&
        other.box.top < cy + half &&
        other.box.bottom > cy - half,
    );
    if (!crowded) continue;
    const name = (element.getAttribute('aria-label') || (element as HTMLElement).innerText || element.getAttribute('title') || '')
      .trim()
      .slice(0, 40);
    const testId = element.getAttribute('data-testid');
    problems.push(
      `touch target ${Math.round(box.width)}x${Math.round(box.height)} px, crowded: <${element.tagName.toLowerCase()}>${name ? ` "${name}"` : ''}${testId ? ` data-testid=${testId}` : ''}`,
    );
  }
  return problems;
}

/**
 * Labels a person cannot read whole: a word broken across lines because its box is narrower than the word
 * (the "one letter per line" of a squeezed button), or text cut with an ellipsis. A value shown in a select
 * is left out: the field opens to show it whole.
 */
export function cutLabelsInPage(): string[] {
  const ctx = document.createElement('canvas').getContext('2d')!;
  const cut: string[] = [];
  const seen = new Set<string>();
  for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    // Elements that hold text themselves.
    const text = Array.from(element.childNodes)
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    if (!text || !element.offsetParent || element.closest('.ant-select-selector, [aria-hidden=true]')) continue;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden') continue;
    let reason: string | undefined;
    if (style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1) reason = 'cut with an ellipsis';
    else if (style.whiteSpace !== 'nowrap') {
      // A word wider than the box the text has: the browser breaks it mid-word (overflow-wrap) or lets it spill.
      ctx.font = style.font;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const longest = text.split(/\s+/).reduce((widest, word) => Math.max(widest, ctx.measureText(word).width), 0);
      // CJK text has no spaces and breaks between any two characters by design; only Latin words are measured.
      const latin = /^[\x20-\x7e\u00a0-\u024f]+$/.test(text);
      if (latin && room > 0 && longest > room + 1) reason = `a word is wider than its ${Math.round(room)} px box`;
    }
    if (reason && !seen.has(text)) {
      seen.add(text);
      cut.push(`label "${text.slice(0, 40)}" ${reason}`);
    }
  }
  return cut;
}
