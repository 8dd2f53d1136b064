import { useState } from 'react';

/** Copies a value to the clipboard and says so (politely, to screen readers too). */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" className="button button-small" onClick={() => void copy()}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy it' : label}</span>
    </button>
  );
}

/** A value to copy: shown in full, selectable, with its copy button. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <div className="copy-value">
      <code aria-label={label}>{value}</code>
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
