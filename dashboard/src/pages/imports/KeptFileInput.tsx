import { useEffect, useRef, type InputHTMLAttributes } from 'react';

/**
 * A file input that shows again the file chosen before the page was left: an input cannot be given a value, but it
 * can be given the files.
 */
export function KeptFileInput({ kept, ...input }: { kept: File | null } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!kept || !ref.current) return;
    const files = new DataTransfer();
    files.items.add(kept);
    ref.current.files = files.files;
    // Only the file kept when the input appeared: later choices are the input's own.
  }, []);
  return <input ref={ref} type="file" {...input} />;
}
