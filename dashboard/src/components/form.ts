import { useState, type FormEvent } from 'react';

export type Problems = Record<string, string>;

type FormOptions<T> = {
  initial: T;
  /** The form's own checks, before anything is sent: field name → message. */
  validate: (values: T) => Problems;
  onSubmit: (values: T) => void;
};

/**
 * A form's values and its own problems. Submitting checks first and sends only a valid form; on a problem, focus
 * goes to the first invalid field. A field's problem clears as soon as it is edited.
 */
export function useForm<T extends object>({ initial, validate, onSubmit }: FormOptions<T>) {
  const [values, setValues] = useState<T>(initial);
  const [problems, setProblems] = useState<Problems>({});
  const set =
    <K extends keyof T>(key: K) =>
    (value: T[K]) => {
      setValues((current) => ({ ...current, [key]: value }));
      setProblems(({ [key as string]: _cleared, ...rest }) => rest);
    };
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = validate(values);
    setProblems(found);
    if (Object.keys(found).length === 0) onSubmit(values);
    else requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };
  return { values, set, setValues, problems, handleSubmit };
}

/** Problems of the form first, then the service's `details` for fields the form found fine. */
export const fieldError = (problems: Problems, server: Problems, field: string) => problems[field] ?? server[field];

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Checks shared by the forms; each answers a message, or undefined when the value is fine. */
export const check = {
  required: (value: string, label: string) => (value.trim() ? undefined : `${label} is required`),
  email: (value: string) => (EMAIL.test(value.trim()) ? undefined : 'Enter an e-mail address such as name@example.com'),
  url: (value: string) => (/^https?:\/\/\S+$/.test(value.trim()) ? undefined : 'Enter an http(s) URL'),
  wholeNumber: (value: string, label: string, min: number, max: number) => {
    const number = Number(value);
    return value.trim() && Number.isInteger(number) && number >= min && number <= max ? undefined : `${label} must be a whole number from ${min} to ${max}`;
  },
};

/** Problems without the checks that passed. */
export function problemsOf(entries: Record<string, string | undefined>): Problems {
  return Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** `''` becomes null: how the service clears an optional text field. */
export const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
