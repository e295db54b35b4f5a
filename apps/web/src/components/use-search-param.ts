import { useSearchParams } from 'react-router';

/** One value of the page address's query (`?id=`), undefined when the address has none. */
export function useSearchParam(name: string): string | undefined {
  const [params] = useSearchParams();
  return params.get(name) ?? undefined;
}
