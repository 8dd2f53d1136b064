import { serverFieldErrors } from '../../api/errors';
import type { Webhook, WebhookEvent } from '../../api/types';
import { FormFooter } from '../../components/FormFooter';
import { CheckboxField, Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { EVENT_GROUPS, EVENT_KINDS, EVENT_ORDER } from './eventKinds';

export type WebhookBody = { name: string; url: string; events: WebhookEvent[]; enabled: boolean };

type WebhookFormProps = {
  webhook?: Webhook;
  eventKinds: WebhookEvent[];
  submitLabel: string;
  pending: boolean;
  error: unknown;
  saved?: boolean;
  onSubmit: (body: WebhookBody) => void;
};

/** Name, target URL, enabled, and the events to send, picked by group from every kind the service emits, each described. */
export function WebhookForm({ webhook, eventKinds, submitLabel, pending, error, saved, onSubmit }: WebhookFormProps) {
  const form = useForm({
    initial: { name: webhook?.name ?? '', url: webhook?.url ?? '', events: (webhook?.events ?? []) as WebhookEvent[], enabled: webhook?.enabled ?? true },
    validate: (values) =>
      problemsOf({ name: check.required(values.name, 'Name'), url: check.url(values.url), events: values.events.length ? undefined : 'Pick at least one event' }),
    onSubmit: (values) => onSubmit({ ...values, name: values.name.trim(), url: values.url.trim() }),
  });
  const server = serverFieldErrors(error);
  const toggle = (kind: WebhookEvent, on: boolean) =>
    form.set('events')(on ? eventKinds.filter((k) => k === kind || form.values.events.includes(k)) : form.values.events.filter((k) => k !== kind));
  const eventsError = fieldError(form.problems, server, 'events');
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form">
      <Field label="Name" error={fieldError(form.problems, server, 'name')}>
        <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
      </Field>
      <Field label="URL" hint="Where signed deliveries are POSTed" error={fieldError(form.problems, server, 'url')}>
        <input type="url" value={form.values.url} placeholder="https://example.com/hooks/licensing" onChange={(e) => form.set('url')(e.target.value)} />
      </Field>
      <fieldset className="event-picker" aria-invalid={eventsError ? true : undefined} aria-describedby={eventsError ? 'events-error' : undefined}>
        <legend>Events</legend>
        <div className="actions">
          <button type="button" className="button button-small" onClick={() => form.set('events')(eventKinds)}>
            All
          </button>
          <button type="button" className="button button-small" onClick={() => form.set('events')([])}>
            None
          </button>
        </div>
        {EVENT_GROUPS.map((group) => {
          const kinds = EVENT_ORDER.filter((kind) => eventKinds.includes(kind) && EVENT_KINDS[kind].group === group);
          if (kinds.length === 0) return null;
          return (
            <fieldset key={group} className="event-group">
              <legend>{group}</legend>
              {kinds.map((kind) => (
                <CheckboxField key={kind} label={kind} hint={EVENT_KINDS[kind].description} checked={form.values.events.includes(kind)} onChange={(on) => toggle(kind, on)} />
              ))}
            </fieldset>
          );
        })}
        {eventsError && (
          <small id="events-error" className="field-error">
            {eventsError}
          </small>
        )}
      </fieldset>
      <CheckboxField label="Enabled" checked={form.values.enabled} onChange={form.set('enabled')} />
      <FormFooter error={error} pending={pending} submitLabel={submitLabel} saved={saved} />
    </form>
  );
}
