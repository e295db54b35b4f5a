import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRefreshingMutation } from './refreshing-mutation.ts';

/** Two shown lists and a change that refreshes `refresh`; `reads` counts how often each list was read. */
async function renderChange(refresh: string[][], onSuccess?: (answer: number, arg: number) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const reads = { things: 0, other: 0 };
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { result } = renderHook(
    () => ({
      things: useQuery({ queryKey: ['things', 'list'], queryFn: () => ++reads.things }),
      other: useQuery({ queryKey: ['other', 'list'], queryFn: () => ++reads.other }),
      change: useRefreshingMutation(
        async (n: number) => {
          if (n < 0) throw new Error('refused');
          return n * 2;
        },
        refresh,
        onSuccess,
      ),
    }),
    { wrapper },
  );
  await waitFor(() => expect(reads).toEqual({ things: 1, other: 1 }));
  return { change: () => result.current.change, reads };
}

describe('useRefreshingMutation', () => {
  it('reads the named queries again before mutateAsync resolves, and only those', async () => {
    const { change, reads } = await renderChange([['things']]);
    await act(async () => {
      expect(await change().mutateAsync(21)).toBe(42);
      expect(reads).toEqual({ things: 2, other: 1 });
    });
  });

  it('reads them again when the change is refused too, and hands the answer to onSuccess', async () => {
    const onSuccess = vi.fn();
    const { change, reads } = await renderChange([['things'], ['other']], onSuccess);
    await act(async () => {
      await expect(change().mutateAsync(-1)).rejects.toThrow('refused');
      expect(reads).toEqual({ things: 2, other: 2 });
    });
    expect(onSuccess).not.toHaveBeenCalled();

    await act(async () => {
      await change().mutateAsync(5);
      expect(reads).toEqual({ things: 3, other: 3 });
    });
    expect(onSuccess.mock.calls[0]!.slice(0, 2)).toEqual([10, 5]);
  });
});
