import type { ImportFormat, StartImport } from './importFile';

/** The import page's choices, and the import it last started: what it shows again when the reader comes back. */
export type KeptImport = {
  productId: string;
  format: ImportFormat | '';
  dryRun: boolean;
  timezone: string;
  productName: string;
  current?: { id: string; dryRun: boolean };
};

/** Per tenant: a user who switches teams does not see another team's import. */
const keyOf = (tenantId: string) => `dashboard.import.${tenantId}`;
const EMPTY: KeptImport = { productId: '', format: '', dryRun: true, timezone: '', productName: '' };

/**
 * Files cannot be stored: the chosen ones and the request last started are kept in memory, so they outlive leaving
 * the page (not a reload, after which the page asks for the file again). The rest is kept in the tab's sessionStorage.
 */
export const keptInMemory: { file: File | null; usersFile: File | null; started: StartImport | null } = { file: null, usersFile: null, started: null };

export function readKeptImport(tenantId: string): KeptImport {
  try {
    return { ...EMPTY, ...(JSON.parse(sessionStorage.getItem(keyOf(tenantId)) ?? '{}') as Partial<KeptImport>) };
  } catch {
    return EMPTY;
  }
}

export function keepImport(tenantId: string, kept: KeptImport): void {
  sessionStorage.setItem(keyOf(tenantId), JSON.stringify(kept));
}
