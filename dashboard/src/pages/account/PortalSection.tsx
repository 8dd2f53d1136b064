import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { useServiceBaseUrl } from '../../api/service-base';
import type { components } from '../../api/schema.gen';
import { CopyButton } from '../../components/CopyButton';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { QueryView } from '../../components/QueryView';
import { useProductChoices } from '../products/productQueries';

type Settings = components['schemas']['PortalSettings'];
export const PORTAL_SETTINGS_KEY = ['portal-settings'] as const;

/** The hosted customer portal (DECISIONS §25): on or off, how it shows the vendor, and the link to give buyers. */
export function PortalSection() {
  const settings = useQuery({ queryKey: PORTAL_SETTINGS_KEY, queryFn: () => unwrap(api.GET('/api/portal-settings')) });
  return (
    <section className="card" aria-labelledby="portal-heading">
      <h2 id="portal-heading">Customer portal</h2>
      <p className="muted">A page where your buyers sign in by e-mailed link to manage their licenses, sites, downloads, invoices and subscription.</p>
      <QueryView query={settings} loading="Loading the portal settings…">
        {(current) => <PortalForm settings={current} />}
      </QueryView>
    </section>
  );
}

function PortalForm({ settings }: { settings: Settings }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Settings) => unwrap(api.PUT('/api/portal-settings', { body })),
    onSuccess: (next) => queryClient.setQueryData(PORTAL_SETTINGS_KEY, next),
  });
  const form = useForm({
    initial: { enabled: settings.enabled, name: settings.name ?? '', logoUrl: settings.logoUrl ?? '', accentColor: settings.accentColor ?? '', supportEmail: settings.supportEmail ?? '' },
    validate: (values) =>
      problemsOf({
        logoUrl: values.logoUrl.trim() && !/^https:\/\/\S+$/.test(values.logoUrl.trim()) ? 'Enter an https URL' : undefined,
        accentColor: values.accentColor.trim() && !/^#[0-9a-fA-F]{6}$/.test(values.accentColor.trim()) ? 'Enter a colour such as #0b7285' : undefined,
        supportEmail: values.supportEmail.trim() ? check.email(values.supportEmail) : undefined,
      }),
    onSubmit: (values) =>
      save.mutate({
        enabled: values.enabled,
        name: orNull(values.name),
        logoUrl: orNull(values.logoUrl),
        accentColor: orNull(values.accentColor),
        supportEmail: orNull(values.supportEmail),
      }),
  });
  const server = serverFieldErrors(save.error);
  return (
    <>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <div className="field field-checkbox">
          <label>
            <input type="checkbox" checked={form.values.enabled} onChange={(e) => form.set('enabled')(e.target.checked)} /> Portal on
          </label>
        </div>
        <Field label="Name shown to buyers" error={fieldError(form.problems, server, 'name')}>
          <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} placeholder="Your product's name" />
        </Field>
        <Field label="Logo URL (https)" error={fieldError(form.problems, server, 'logoUrl')}>
          <input type="url" value={form.values.logoUrl} onChange={(e) => form.set('logoUrl')(e.target.value)} />
        </Field>
        <Field label="Accent colour" error={fieldError(form.problems, server, 'accentColor')}>
          <input value={form.values.accentColor} onChange={(e) => form.set('accentColor')(e.target.value)} placeholder="#0b7285" />
        </Field>
        <Field label="Support e-mail" error={fieldError(form.problems, server, 'supportEmail')}>
          <input type="email" value={form.values.supportEmail} onChange={(e) => form.set('supportEmail')(e.target.value)} />
        </Field>
        <FormFooter error={save.error} pending={save.isPending} submitLabel="Save portal settings" saved={save.isSuccess} />
      </form>
      {settings.enabled && <PortalLinks />}
    </>
  );
}

/** Each product's portal page, to link from the vendor's site (a link: the page refuses to be framed). */
function PortalLinks() {
  const base = useServiceBaseUrl();
  const products = useProductChoices();
  if (!base || !products.data?.length) return null;
  return (
    <>
      <h3>Link to it</h3>
      <ul>
        {products.data.map((product) => {
          const link = `${base}/portal?public_key=${encodeURIComponent(product.public_key)}`;
          return (
            <li key={product.id}>
              {product.name}: <code>{link}</code> <CopyButton value={link} label="Copy link" />{' '}
              <CopyButton value={`<a href="${link}" rel="noopener">Manage your license</a>`} label="Copy HTML" />
            </li>
          );
        })}
      </ul>
    </>
  );
}
