import { ErrorBanner } from './ErrorBanner';

/** The end of an edit form: the service's refusal, if any, and the submit button, which waits while saving. */
export function FormFooter({ error, pending, submitLabel }: { error: unknown; pending: boolean; submitLabel: string }) {
  return (
    <>
      <ErrorBanner error={error} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </>
  );
}
