import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A change to stored data: once it settles, done or refused, every query under `refresh` is read again, and
 * `mutateAsync` resolves only after that, so the caller shows what is stored now. `onSuccess` sees the answer
 * first (to keep it in the cache at once).
 */
export function useRefreshingMutation<A, R>(
  mutationFn: (arg: A) => Promise<R>,
  refresh: readonly QueryKey[],
  onSuccess?: (answer: R, arg: A) => unknown,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess,
    onSettled: () => Promise.all(refresh.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
