import { useId, useRef, type ReactNode } from 'react';

type ConfirmButtonProps = {
  /** The button's text, also the confirming button's. */
  label: string;
  /** The question the dialog asks. */
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  /** Destructive actions are red. */
  danger?: boolean;
};

/**
 * A button that asks before it acts, in a native modal `<dialog>`: focus moves into it, Escape cancels and focus
 * returns to the button.
 */
export function ConfirmButton({ label, title, children, onConfirm, disabled, danger = true }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const className = `button${danger ? ' button-danger' : ''}`;
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId}>
        <form
          method="dialog"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') onConfirm();
          }}
        >
          <h2 id={titleId}>{title}</h2>
          {children}
          <div className="actions">
            <button type="submit" value="cancel" className="button" autoFocus>
              Cancel
            </button>
            <button type="submit" value="confirm" className={className}>
              {label}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
