/** Light or dark: the visitor's choice, kept in this browser, else the system's. */
export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'dashboard-theme';

export function initialTheme(): Theme {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme, remember: boolean): void {
  document.documentElement.dataset.theme = theme;
  if (remember) localStorage.setItem(STORAGE_KEY, theme);
}
