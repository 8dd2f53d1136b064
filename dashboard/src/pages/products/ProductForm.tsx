import type { Product, ProductType } from '../../api/types';
import { serverFieldErrors } from '../../api/errors';
import { FormFooter } from '../../components/FormFooter';
import { CheckboxField, Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';
import { IncludedProducts } from './IncludedProducts';
import { originLines, ReturnOriginsField, returnOriginsProblem } from './ReturnOriginsField';
import { DEFAULT_GRACE_DAYS, DEFAULT_RENEWAL_REMINDER_DAYS, reminderDaysOf, reminderDaysProblem, RenewalFields } from './RenewalFields';

const PRODUCT_TYPES: ProductType[] = ['plugin', 'theme', 'app', 'library', 'saas', 'other', 'bundle'];
const STATUSES: Product['status'][] = ['active', 'draft', 'archived'];

/**
 * Optional text fields of a product, in the order the form shows them; empty clears them (null). A new optional
 * text field of the product is one more line here.
 */
const TEXT_FIELDS = [
  { key: 'description', label: 'Description', multiline: true },
  { key: 'homepage', label: 'Homepage', url: true },
  { key: 'logoUrl', label: 'Logo URL', url: true, hint: 'The update check’s icons' },
  { key: 'bannerUrl', label: 'Banner URL', url: true },
  { key: 'readmeUrl', label: 'Readme URL', url: true },
  { key: 'icon', label: 'Icon', hint: 'An emoji, e.g. 🔌' },
  { key: 'color', label: 'Colour', hint: '#rgb or #rrggbb' },
  { key: 'tested', label: 'Tested up to', hint: 'Update metadata, e.g. 6.7' },
  { key: 'requires', label: 'Requires', hint: 'Minimum platform version' },
  { key: 'requiresPhp', label: 'Requires PHP' },
] as const;
type TextKey = (typeof TEXT_FIELDS)[number]['key'];

/**
 * What the form shows before "Advanced": the few fields a product needs to start (name, type, slug and these, and
 * whether it needs a license); everything else keeps the service's defaults until changed.
 */
const FIRST_VIEW_FIELDS: ReadonlySet<string> = new Set(['name', 'productType', 'includes', 'slug', 'description', 'homepage', 'requiresLicense']);

export type ProductBody = {
  name: string;
  productType: ProductType;
  status: Product['status'];
  isPremium: boolean;
  requiresLicense: boolean;
  managesReleases: boolean;
  composerEnabled: boolean;
  slug?: string;
  licensePrefix?: string;
  /** null: the service's default patterns. */
  stagingPatterns: string[] | null;
  stagingActivationLimit: number;
  offlineValidityDays: number;
  returnOrigins: string[];
  updatesAfterExpiry: UpdatesAfterExpiry;
  renewalReminderDays: number[];
  graceDays: number;
  planChangeProration: PlanChangeProration;
  /** A bundle's included products (DECISIONS §23); sent only for a bundle. */
  includes?: string[];
} & Record<TextKey, string | null>;

type PlanChangeProration = Product['planChangeProration'];
/** DECISIONS §15: how a subscription's plan change is billed. */
const PRORATIONS: { value: PlanChangeProration; label: string }[] = [
  { value: 'upgradeNowDowngradeAtRenewal', label: 'Upgrades now (prorated), downgrades at renewal' },
  { value: 'prorateAll', label: 'Every change now, prorated' },
  { value: 'none', label: 'Every change now, not prorated' },
];

type UpdatesAfterExpiry = Product['updatesAfterExpiry'];
const AFTER_EXPIRY: { value: UpdatesAfterExpiry; label: string }[] = [
  { value: 'none', label: 'None: no downloads once expired' },
  { value: 'releasedBeforeExpiry', label: 'Releases from before the expiry' },
];

type Values = {
  name: string;
  slug: string;
  licensePrefix: string;
  productType: ProductType;
  status: Product['status'];
  isPremium: boolean;
  requiresLicense: boolean;
  managesReleases: boolean;
  composerEnabled: boolean;
  defaultStagingPatterns: boolean;
  /** One pattern a line. */
  stagingPatterns: string;
  stagingActivationLimit: string;
  offlineValidityDays: string;
  updatesAfterExpiry: UpdatesAfterExpiry;
  /** One origin a line. */
  returnOrigins: string;
  /** Comma-separated days. */
  renewalReminderDays: string;
  graceDays: string;
  planChangeProration: PlanChangeProration;
  includes: string[];
} & Record<TextKey, string>;

/** The service's defaults for a new product (docs/api.md, Staging and local sites; Offline license files). */
const DEFAULT_STAGING_ACTIVATION_LIMIT = 3;
const DEFAULT_OFFLINE_VALIDITY_DAYS = 30;
const STAGING_PATTERN = /^(\{ip\}|(\*|[a-z0-9_-]+)(\.(\*|[a-z0-9_-]+))*)$/;

const patternLines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

function initialValues(product?: Product): Values {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field.key, product?.[field.key] ?? ''])) as Record<TextKey, string>;
  return {
    name: product?.name ?? '',
    slug: product?.slug ?? '',
    licensePrefix: product?.licensePrefix ?? '',
    productType: product?.productType ?? 'plugin',
    status: product?.status ?? 'active',
    isPremium: product?.isPremium ?? false,
    requiresLicense: product?.requiresLicense ?? true,
    managesReleases: product?.managesReleases ?? true,
    composerEnabled: product?.composerEnabled ?? false,
    defaultStagingPatterns: (product?.stagingPatterns ?? null) === null,
    stagingPatterns: (product?.stagingPatterns ?? []).join('\n'),
    stagingActivationLimit: String(product?.stagingActivationLimit ?? DEFAULT_STAGING_ACTIVATION_LIMIT),
    offlineValidityDays: String(product?.offlineValidityDays ?? DEFAULT_OFFLINE_VALIDITY_DAYS),
    updatesAfterExpiry: product?.updatesAfterExpiry ?? 'none',
    returnOrigins: (product?.returnOrigins ?? []).join('\n'),
    renewalReminderDays: (product?.renewalReminderDays ?? DEFAULT_RENEWAL_REMINDER_DAYS).join(', '),
    graceDays: String(product?.graceDays ?? DEFAULT_GRACE_DAYS),
    planChangeProration: product?.planChangeProration ?? 'upgradeNowDowngradeAtRenewal',
    includes: product?.includes ?? [],
    ...text,
  };
}

/** The service's rules for a pattern list: at most 50, each `{ip}` or labels (a-z 0-9 - _) and `*` joined by dots, not `*` alone. */
function stagingPatternsProblem(patterns: string[]): string | undefined {
  if (patterns.length > 50) return 'Staging patterns: at most 50';
  const bad = patterns.find((pattern) => !STAGING_PATTERN.test(pattern.toLowerCase()) || pattern.split('.').every((label) => label === '*'));
  return bad === undefined ? undefined : `Staging pattern ${bad} is not a domain pattern such as *.local or staging.*`;
}

type ProductFormProps = { product?: Product; submitLabel: string; pending: boolean; error: unknown; onSubmit: (body: ProductBody) => void };

/** Create and edit a product: the same fields; a blank slug or license prefix is generated by the service. */
export function ProductForm({ product, submitLabel, pending, error, onSubmit }: ProductFormProps) {
  const form = useForm({
    initial: initialValues(product),
    validate: (values) =>
      problemsOf({
        name: check.required(values.name, 'Name'),
        slug: values.slug && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(values.slug) ? 'Slug: lower-case letters, digits and single hyphens' : undefined,
        color: values.color && !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(values.color) ? 'Colour must be #rgb or #rrggbb' : undefined,
        stagingPatterns: values.defaultStagingPatterns ? undefined : stagingPatternsProblem(patternLines(values.stagingPatterns)),
        stagingActivationLimit: check.wholeNumber(values.stagingActivationLimit, 'Staging sites per license', 1, 100),
        offlineValidityDays: check.wholeNumber(values.offlineValidityDays, 'Offline file validity', 1, 365),
        returnOrigins: returnOriginsProblem(originLines(values.returnOrigins)),
        renewalReminderDays: reminderDaysProblem(values.renewalReminderDays),
        graceDays: check.wholeNumber(values.graceDays, 'Grace days', 0, 30),
        includes: values.productType === 'bundle' && values.includes.length < 2 ? 'A bundle includes 2 to 100 products' : undefined,
        ...Object.fromEntries(TEXT_FIELDS.filter((field) => 'url' in field && values[field.key].trim()).map((field) => [field.key, check.url(values[field.key])])),
      }),
    onSubmit: (values) =>
      onSubmit({
        name: values.name.trim(),
        productType: values.productType,
        status: values.status,
        isPremium: values.isPremium,
        requiresLicense: values.requiresLicense,
        managesReleases: values.managesReleases,
        composerEnabled: values.composerEnabled,
        ...(values.slug.trim() && { slug: values.slug.trim() }),
        ...(values.licensePrefix.trim() && { licensePrefix: values.licensePrefix.trim() }),
        stagingPatterns: values.defaultStagingPatterns ? null : patternLines(values.stagingPatterns).map((line) => line.toLowerCase()),
        stagingActivationLimit: Number(values.stagingActivationLimit),
        offlineValidityDays: Number(values.offlineValidityDays),
        updatesAfterExpiry: values.updatesAfterExpiry,
        returnOrigins: originLines(values.returnOrigins),
        renewalReminderDays: reminderDaysOf(values.renewalReminderDays),
        graceDays: Number(values.graceDays),
        planChangeProration: values.planChangeProration,
        ...(values.productType === 'bundle' && { includes: values.includes }),
        ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field.key, orNull(values[field.key])])) as Record<TextKey, string | null>),
      }),
  });
  const server = serverFieldErrors(error);
  const errorOf = (field: string) => fieldError(form.problems, server, field);
  const textField = (field: (typeof TEXT_FIELDS)[number]) => (
    <Field key={field.key} label={field.label} hint={'hint' in field ? field.hint : undefined} error={errorOf(field.key)}>
      {'multiline' in field ? (
        <textarea rows={3} value={form.values[field.key]} onChange={(e) => form.set(field.key)(e.target.value)} />
      ) : (
        <input type={'url' in field ? 'url' : 'text'} value={form.values[field.key]} onChange={(e) => form.set(field.key)(e.target.value)} />
      )}
    </Field>
  );
  // A problem the form or the service found in an advanced field opens the section, so that it shows.
  const advancedProblem = Object.keys({ ...form.problems, ...server }).some((field) => !FIRST_VIEW_FIELDS.has(field));
  return (
    <form onSubmit={form.handleSubmit} noValidate className="grid-form">
      <Field label="Name" error={errorOf('name')}>
        <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
      </Field>
      <Field label="Type" error={errorOf('productType')}>
        <select value={form.values.productType} onChange={(e) => form.set('productType')(e.target.value as ProductType)}>
          {PRODUCT_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
      </Field>
      {form.values.productType === 'bundle' && <IncludedProducts bundleId={product?.id} value={form.values.includes} onChange={form.set('includes')} error={errorOf('includes')} />}
      <Field label="Slug" hint={product ? 'Plugins find the product by it' : 'Blank: made from the name'} error={errorOf('slug')}>
        <input value={form.values.slug} onChange={(e) => form.set('slug')(e.target.value)} />
      </Field>
      {TEXT_FIELDS.filter((field) => FIRST_VIEW_FIELDS.has(field.key)).map(textField)}
      <fieldset className="checkboxes">
        <legend>Options</legend>
        <CheckboxField label="Requires a license" checked={form.values.requiresLicense} onChange={form.set('requiresLicense')} />
      </fieldset>
      {/* Everything a product can start without, with the service's defaults: open when editing a saved product. */}
      <details className="advanced" open={Boolean(product) || advancedProblem}>
        <summary>Advanced</summary>
        <div className="grid-form">
          <Field label="License key prefix" hint="Blank: from the slug" error={errorOf('licensePrefix')}>
            <input value={form.values.licensePrefix} onChange={(e) => form.set('licensePrefix')(e.target.value)} />
          </Field>
          <Field label="Status" error={errorOf('status')}>
            <select value={form.values.status} onChange={(e) => form.set('status')(e.target.value as Product['status'])}>
              {STATUSES.map((status) => (
                <option key={status}>{status}</option>
              ))}
            </select>
          </Field>
          {TEXT_FIELDS.filter((field) => !FIRST_VIEW_FIELDS.has(field.key)).map(textField)}
          <ReturnOriginsField value={form.values.returnOrigins} error={errorOf('returnOrigins')} onChange={form.set('returnOrigins')} warnWhenEmpty={Boolean(product)} />
          <fieldset className="checkboxes">
            <legend>Staging and local sites</legend>
            <p className="muted">Sites whose domain matches a pattern activate without taking a seat, up to a limit per license.</p>
            <CheckboxField
              label="Default patterns"
              hint="localhost, IP addresses, *.local, *.test, *.example, *.invalid, staging.*, *.staging.*, dev.*, *.dev.*"
              checked={form.values.defaultStagingPatterns}
              onChange={form.set('defaultStagingPatterns')}
            />
            {!form.values.defaultStagingPatterns && (
              <Field label="Staging patterns" hint="One a line: * stands for one or more labels, {ip} for any IP address; none: every site takes a seat" error={errorOf('stagingPatterns')}>
                <textarea rows={4} value={form.values.stagingPatterns} onChange={(e) => form.set('stagingPatterns')(e.target.value)} />
              </Field>
            )}
            <Field label="Staging sites per license" hint="1 to 100" error={errorOf('stagingActivationLimit')}>
              <input type="number" min={1} max={100} value={form.values.stagingActivationLimit} onChange={(e) => form.set('stagingActivationLimit')(e.target.value)} />
            </Field>
          </fieldset>
          <Field label="Offline license files valid for (days)" hint="1 to 365" error={errorOf('offlineValidityDays')}>
            <input type="number" min={1} max={365} value={form.values.offlineValidityDays} onChange={(e) => form.set('offlineValidityDays')(e.target.value)} />
          </Field>
          <Field
            label="Updates after expiry"
            hint="What an expired license may still install; either way its sites are told to renew for newer releases"
            error={errorOf('updatesAfterExpiry')}
          >
            <select className="select-long" value={form.values.updatesAfterExpiry} onChange={(e) => form.set('updatesAfterExpiry')(e.target.value as UpdatesAfterExpiry)}>
              {AFTER_EXPIRY.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
          <RenewalFields
            reminderDays={form.values.renewalReminderDays}
            graceDays={form.values.graceDays}
            onReminderDays={form.set('renewalReminderDays')}
            onGraceDays={form.set('graceDays')}
            errorOf={errorOf}
          />
          <Field label="Plan changes" hint="How a subscription moving to another plan is billed" error={errorOf('planChangeProration')}>
            <select className="select-long" value={form.values.planChangeProration} onChange={(e) => form.set('planChangeProration')(e.target.value as PlanChangeProration)}>
              {PRORATIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="checkboxes">
            <legend>More options</legend>
            <CheckboxField label="Premium" checked={form.values.isPremium} onChange={form.set('isPremium')} />
            <CheckboxField label="Releases managed here" checked={form.values.managesReleases} onChange={form.set('managesReleases')} />
            <CheckboxField
              label="Installed with Composer"
              hint="Shows customers the auth.json and repositories snippet (Connect, license e-mails)"
              checked={form.values.composerEnabled}
              onChange={form.set('composerEnabled')}
            />
          </fieldset>
        </div>
      </details>
      <FormFooter error={error} pending={pending} submitLabel={submitLabel} />
    </form>
  );
}
