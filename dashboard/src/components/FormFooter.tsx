import type { ReactNode } from 'react';
import { ErrorBanner } from './ErrorBanner';

/**
 * "Saved." once a change went through, in a live region that is there before it, so a screen reader announces it.
 * Every form that saves in place shows it by this (through `FormFooter`, or beside a control that saves at once).
 */
export function SavedStatus({ saved, children = 'Saved.' }: { saved: boolean; children?: ReactNode }) {
  return (
    <span role="status" className="saved-status">
      {saved && children}
    </span>
  );
}

type FormFooterProps = {
  error: unknown;
  pending: boolean;
  submitLabel: string;
  /** For a form that saves in place: the last save went through (the mutation's `isSuccess`). */
  saved?: boolean;
};

/** The end of an edit form: the service's refusal, if any, the submit button, which waits while saving, and "Saved.". */
export function FormFooter({ error, pending, submitLabel, saved }: FormFooterProps) {
  return (
    <>
      <ErrorBanner error={error} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        {saved !== undefined && <SavedStatus saved={saved && !pending} />}
      </div>
    </>
  );
}
