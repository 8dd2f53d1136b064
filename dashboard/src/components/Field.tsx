import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';

type FieldProps = {
  label: string;
  /** The field's problem: the form's own check, or the service's `details`. */
  error?: string;
  hint?: ReactNode;
  /** One input, select or textarea; it gets the id, `aria-invalid` and `aria-describedby`. */
  children: ReactElement<Record<string, unknown>>;
};

/** A labelled form control with its hint and error, tied together for assistive technology. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A checkbox with its label beside it, and its hint tied to it for assistive technology. */
export function CheckboxField({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
  const hintId = useId();
  return (
    <div className="field field-checkbox">
      <label>
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} aria-describedby={hint ? hintId : undefined} /> {label}
      </label>
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}
