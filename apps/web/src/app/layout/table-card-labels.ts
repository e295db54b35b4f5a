import { useOnDomChange } from './dom-changes.ts';

/** The text of each column header of a table, in the order of the body's cells (a header spanning n columns counts n times). */
function headerLabels(table: Element): string[] {
  const row = table.querySelector('.ant-table-thead > tr:last-child');
  if (!row) return [];
  return Array.from(row.children).flatMap((cell) => {
    const text = cell.textContent?.trim() ?? '';
    return Array<string>((cell as HTMLTableCellElement).colSpan || 1).fill(text);
  });
}

/** Writes each body cell's column title into its `data-label`, which phone.css shows beside the value. */
function labelCells(root: ParentNode): void {
  for (const table of Array.from(root.querySelectorAll('.ant-table'))) {
    const labels = headerLabels(table);
    if (!labels.length) continue;
    for (const row of Array.from(table.querySelectorAll('.ant-table-tbody > tr.ant-table-row'))) {
      let column = 0;
      for (const cell of Array.from(row.children) as HTMLTableCellElement[]) {
        const label = labels[column] ?? '';
        if (label) {
          if (cell.dataset.label !== label) cell.dataset.label = label;
        } else if (cell.dataset.label !== undefined) delete cell.dataset.label;
        column += cell.colSpan || 1;
      }
    }
  }
}

/**
 * On a phone every antd table is shown as a list of cards (phone.css): one card per row, one line per column
 * with the column's title beside its value, so the state and the row's actions are on screen without scrolling
 * sideways. The titles come from the header cells the page already renders, so every table, its render
 * functions and its actions work unchanged; this keeps the cells' labels in step as tables render.
 */
export function useTableCardLabels(enabled: boolean): void {
  useOnDomChange(labelCells, enabled);
}
