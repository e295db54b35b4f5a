import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useApiQuery, WAITING_KEY } from './api-query.ts';

const thingKey = (id: string) => ['things', id] as const;

function renderRead(initial: string | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const read = vi.fn((id: string) => Promise.resolve(`thing ${id}`));
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const view = renderHook(({ id }: { id: string | undefined }) => useApiQuery(thingKey, read, id), {
    wrapper,
    initialProps: { id: initial },
  });
  return { client, read, ...view };
}

describe('useApiQuery', () => {
  it('reads the input under the key the factory gives it', async () => {
    const { client, read, result } = renderRead('7');
    await waitFor(() => expect(result.current.data).toBe('thing 7'));
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0]?.[0]).toBe('7');
    expect(client.getQueryData(thingKey('7'))).toBe('thing 7');
  });

  it('waits without reading while the input is undefined, and reads once it comes', async () => {
    const { client, read, result, rerender } = renderRead(undefined);
    expect(result.current.fetchStatus).toBe('idle');
    expect(result.current.data).toBeUndefined();
    expect(client.getQueryState(WAITING_KEY)?.data).toBeUndefined();

    rerender({ id: '8' });
    await waitFor(() => expect(result.current.data).toBe('thing 8'));
    expect(read).toHaveBeenCalledTimes(1);
  });
});
