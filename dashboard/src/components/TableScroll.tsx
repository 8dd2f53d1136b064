import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box is focusable and named, so keyboard users can
 * scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
