import { ApiError, errorMessage } from '../api/errors';

/** The service's own message, and every field detail it gave, announced to screen readers. */
export function ErrorBanner({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div className="banner banner-error" role="alert">
      {title && <strong>{title}: </strong>}
      {errorMessage(error)}
      {details.length > 1 && (
        <ul>
          {details.map((detail) => (
            <li key={`${detail.path}:${detail.message}`}>{detail.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
