import { useSearchParams } from 'react-router';

/**
 * A list page's filters and page number, kept in the URL so a filtered list can be linked and survives a reload.
 * Changing a filter goes back to page 1.
 */
export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) (value ? next.set(key, value) : next.delete(key));
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  return { page: Number(params.get('page') ?? 1), filter: (name: string) => params.get(name) ?? '', update };
}
