/** How dates, sizes and money read in the dashboard: the browser's locale, times in the viewer's zone. */
export const formatDate = (value: string | null | undefined) => (value ? new Date(value).toLocaleString() : '—');
export const formatDay = (value: string | null | undefined) => (value ? new Date(value).toLocaleDateString() : '—');

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A count of staging sites, in words. */
export const stagingSites = (count: number) => `${count} staging site${count === 1 ? '' : 's'}`;
