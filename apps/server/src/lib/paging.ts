import { PAGE_SIZE } from '@lumigrid/contract';

/** Offset and limit of a page request (page 1 first, the contract's default size). */
export function paging(body: { page?: number; pageSize?: number }): { offset: number; limit: number } {
  const limit = body.pageSize ?? PAGE_SIZE.default;
  return { offset: ((body.page ?? 1) - 1) * limit, limit };
}
