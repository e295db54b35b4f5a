import { describe, expect, it } from 'vitest';
import { tablePaging, type PageOfList } from './table-paging.ts';

/** Holds the state a page would and applies the pager's updates to it. */
function held<T extends PageOfList>(initial: T) {
  let state = initial;
  const pager = () => tablePaging(state, (update) => (state = update(state)), 95);
  return { pager, state: () => state };
}

describe('tablePaging', () => {
  it('shows the page held in state and the total', () => {
    const { pager } = held({ page: 3, pageSize: 20 });
    expect(pager()).toMatchObject({ current: 3, pageSize: 20, total: 95, showSizeChanger: true });
  });

  it('moves to the page asked for and keeps the filters beside it', () => {
    const list = held({ page: 1, pageSize: 20, name: 'hall' });
    list.pager().onChange?.(4, 20);
    expect(list.state()).toEqual({ page: 4, pageSize: 20, name: 'hall' });
  });

  it('starts again from the first page when the page size changes', () => {
    const list = held({ page: 4, pageSize: 20 });
    list.pager().onChange?.(4, 50);
    expect(list.state()).toEqual({ page: 1, pageSize: 50 });
  });
});
