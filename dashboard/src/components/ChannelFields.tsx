import type { Release } from '../api/types';
import { Field } from './Field';

export type Channel = Release['channel'];
const CHANNELS: { value: Channel; label: string }[] = [
  { value: 'stable', label: 'Stable' },
  { value: 'beta', label: 'Beta (and stable)' },
  { value: 'alpha', label: 'Alpha (beta and stable too)' },
];

type ChannelFieldProps<V extends Channel | ''> = {
  label: string;
  hint?: string;
  value: V;
  onChange: (channel: V) => void;
  error?: string;
  /** An option for no channel (`''`), labelled so: the service's default. */
  blankLabel?: string;
};

/** A release channel: of a release, or what a plan's or license's sites receive. */
export function ChannelField<V extends Channel | ''>({ label, hint, value, onChange, error, blankLabel }: ChannelFieldProps<V>) {
  return (
    <Field label={label} hint={hint} error={error}>
      <select value={value} onChange={(e) => onChange(e.target.value as V)}>
        {blankLabel && <option value="">{blankLabel}</option>}
        {CHANNELS.map((channel) => (
          <option key={channel.value} value={channel.value}>
            {channel.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** What a rollout percentage means for the sites that check for updates. */
export const rolloutSummary = (percent: number) =>
  percent >= 100 ? 'Every site on its channel gets it' : `About ${percent}% of sites on its channel get it; the rest keep the previous release`;

/** A staged rollout: a slider from 1 to 100%, with the share of sites it reaches. */
export function RolloutField({ value, onChange, error }: { value: number; onChange: (percent: number) => void; error?: string }) {
  return (
    <Field label={`Rollout: ${value}%`} hint={rolloutSummary(value)} error={error}>
      <input type="range" min={1} max={100} step={1} value={value} onChange={(e) => onChange(Number(e.target.value))} />
    </Field>
  );
}
