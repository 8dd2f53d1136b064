import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';

type NavMenuProps = {
  label: ReactNode;
  /** The menu's name for assistive technology, when the visible label is not it (an e-mail address). */
  ariaLabel?: string;
  /** Marks the button as where the reader is (one of its pages is open). */
  current?: boolean;
  className?: string;
  children: ReactNode;
};

/**
 * A group of the header's links behind a button (the WAI disclosure navigation pattern): the button says whether it is
 * open (`aria-expanded`); Tab walks its links, ArrowDown and ArrowUp move between them, Escape closes it and gives the
 * focus back to the button. It closes on a click elsewhere, when the focus leaves it, and when a page opens.
 */
export function NavMenu({ label, ariaLabel, current = false, className, children }: NavMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => !root.current?.contains(event.target as Node) && setOpen(false);
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);
  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('.nav-menu-list a, .nav-menu-list button') ?? [])];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const forward = event.key === 'ArrowDown';
      const move = () => {
        const all = items();
        const at = all.indexOf(document.activeElement as HTMLElement);
        all[forward ? (at + 1) % all.length : at <= 0 ? all.length - 1 : at - 1]?.focus();
      };
      if (open) return move();
      setOpen(true);
      // The list is drawn once open: move the focus after that render.
      requestAnimationFrame(move);
    }
  };
  return (
    <div
      ref={root}
      className={`nav-menu${className ? ` ${className}` : ''}`}
      onKeyDown={onKeyDown}
      onBlur={(event) => !root.current?.contains(event.relatedTarget as Node | null) && setOpen(false)}
    >
      <button
        ref={button}
        type="button"
        className={`nav-menu-button${current ? ' active' : ''}`}
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => setOpen(!open)}
      >
        {label}
        <span aria-hidden="true" className="nav-menu-caret">
          ▾
        </span>
      </button>
      <div id={id} className="nav-menu-list" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
