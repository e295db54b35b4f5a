import type { TablePaginationConfig } from 'antd';

/** The page a list shows, kept in the page's state beside its filters (the contract's paged bodies leave both optional). */
export interface PageOfList {
  page?: number;
  pageSize?: number;
}

/** A table's pager over a page held in state; a new page size starts again from the first page. */
export function tablePaging<T extends PageOfList>(
  paging: T,
  setPaging: (update: (current: T) => T) => void,
  total: number,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.pageSize,
    total,
    showSizeChanger: true,
    onChange: (page, pageSize) => setPaging((current) => ({ ...current, page: pageSize === current.pageSize ? page : 1, pageSize })),
  };
}
