import { escapeHtml as e } from '../../../shared/platform/index.js';
import type { PortalAccount } from '../../../shared/portal/index.js';
import { type Branding, htmlPage } from './page-layout.js';

type License = PortalAccount['licenses'][number];
type Subscription = PortalAccount['subscriptions'][number];
type Download = PortalAccount['downloads'][number];

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : '—');
const money = (amount: number | null, currency: string | null) =>
  amount === null || !currency ? '—' : new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(amount);
const sizeOf = (bytes: number) => (bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const CYCLE: Record<string, string> = { monthly: 'month', yearly: 'year', lifetime: 'once' };

/** A form of one button posting to a portal action (same origin: the browser sends the Origin the CSRF rule checks). */
const actionButton = (path: string, label: string, kind = 'secondary', fields = '', ariaLabel?: string) =>
  `<form class="inline" method="post" action="${e(path)}">${fields}<button type="submit" class="${kind}"${ariaLabel ? ` aria-label="${e(ariaLabel)}"` : ''}>${e(label)}</button></form>`;

function licenseCard(license: License, preview: boolean) {
  const sites = license.activations.length
    ? `<ul class="plain">${license.activations
        .map((activation) => {
          const where = activation.domain ?? activation.name ?? activation.machine ?? '—';
          const kind = activation.machine ? 'Machine' : activation.environment === 'staging' ? 'Staging site' : 'Site';
          return `<li><span>${e(kind)}: <strong>${e(where)}</strong> <span class="muted">since ${e(day(activation.activatedAt))}</span></span>${preview ? '' : actionButton(`/portal/activations/${activation.id}/deactivate`, 'Deactivate', 'danger', '', `Deactivate ${where}`)}</li>`;
        })
        .join('')}</ul>`
    : '<p class="muted">No active sites or machines.</p>';
  return `<section class="card" aria-labelledby="lic-${e(license.id)}">
<h3 id="lic-${e(license.id)}">${e(license.productName ?? 'License')}${license.planName ? ` · ${e(license.planName)}` : ''}</h3>
<dl><dt>License key</dt><dd><code>${e(license.licenseKey)}</code> <button type="button" class="secondary" data-copy="${e(license.licenseKey)}" hidden>Copy key</button></dd>
<dt>Status</dt><dd class="status status-${e(license.status)}">${e(license.status)}</dd>
<dt>Expires</dt><dd>${license.expiresAt ? e(day(license.expiresAt)) : 'Never'}</dd>
<dt>Seats used</dt><dd>${license.seatsUsed} of ${license.seats}</dd></dl>
<h4>Sites and machines</h4>${sites}</section>`;
}

function subscriptionCard(subscription: Subscription, preview: boolean) {
  const base = `/portal/subscriptions/${subscription.id}`;
  const live = ['active', 'trialing', 'past_due'].includes(subscription.status);
  const change = live && subscription.billedAtProvider && subscription.otherPlans.length
    ? `<form method="post" action="${e(`${base}/change-plan`)}" class="row"><label for="plan-${e(subscription.id)}">Change plan</label>
<select id="plan-${e(subscription.id)}" name="planId">${subscription.otherPlans
        .map((plan) => `<option value="${e(plan.id)}">${e(plan.name)}: ${e(money(plan.price, plan.currency))} a ${e(CYCLE[plan.billingCycle] ?? plan.billingCycle)}, ${plan.siteLimit} sites</option>`)
        .join('')}</select><button type="submit">Change plan</button></form>`
    : '';
  const cancel = !live || !subscription.billedAtProvider
    ? ''
    : subscription.cancelAtPeriodEnd
      ? actionButton(`${base}/resume`, 'Keep my subscription', 'primary')
      : actionButton(`${base}/cancel`, 'Cancel at period end', 'danger');
  const card = live && subscription.billedAtProvider ? actionButton(`${base}/billing-portal`, 'Update payment method') : '';
  const ending = subscription.cancelAtPeriodEnd ? `<p class="notice">Ends on ${e(day(subscription.currentPeriodEnd))}; it will not renew.</p>` : '';
  const pending = subscription.pendingPlanId ? `<p class="muted">A plan change takes effect on ${e(day(subscription.pendingPlanEffectiveAt))}.</p>` : '';
  return `<section class="card" aria-labelledby="sub-${e(subscription.id)}">
<h3 id="sub-${e(subscription.id)}">${e(subscription.productName ?? 'Subscription')}${subscription.planName ? ` · ${e(subscription.planName)}` : ''}</h3>
<dl><dt>Status</dt><dd class="status">${e(subscription.status.replace('_', ' '))}</dd>
<dt>Price</dt><dd>${e(money(subscription.price, subscription.currency))}${subscription.billingCycle ? ` a ${e(CYCLE[subscription.billingCycle] ?? subscription.billingCycle)}` : ''}</dd>
<dt>${subscription.cancelAtPeriodEnd ? 'Ends' : 'Renews'}</dt><dd>${e(day(subscription.currentPeriodEnd))}</dd></dl>
${ending}${pending}${preview ? '' : `${change}<div class="row">${cancel}${card}</div>`}</section>`;
}

/** A product's latest release, and the earlier versions a buyer may roll back to (folded away). */
function downloadItem(download: Download) {
  const latest = `<span><strong>${e(download.productName)} ${e(download.version)}</strong> <span class="muted">${e(day(download.releasedAt))} · ${e(sizeOf(download.fileSize))}</span></span><a class="button" href="${e(download.downloadUrl)}" download>Download ${e(download.fileName)}</a>`;
  const earlier = download.earlier.length
    ? `<details><summary>Earlier versions of ${e(download.productName)}</summary><ul class="plain">${download.earlier
        .map((older) => `<li><span>${e(older.version)} <span class="muted">${e(day(older.releasedAt))} · ${e(sizeOf(older.fileSize))}</span></span><a href="${e(older.downloadUrl)}" download aria-label="Download ${e(download.productName)} ${e(older.version)}">Download</a></li>`)
        .join('')}</ul></details>`
    : '';
  return `<li class="download">${latest}${earlier}</li>`;
}

/**
 * What a signed-in buyer sees: licenses with their sites, downloads, subscriptions and invoices. In the vendor's
 * `preview`, the same with a banner saying so and no button that changes anything.
 */
export function accountPage(branding: Branding, account: PortalAccount, notice?: string, preview = false) {
  const downloads = account.downloads.length
    ? `<ul class="plain">${account.downloads.map(downloadItem).join('')}</ul>`
    : '<p class="muted">Nothing to download: no license of yours is active.</p>';
  const invoices = account.invoices.length
    ? `<ul class="plain">${account.invoices
        .map((invoice) => `<li><span>${e(day(invoice.createdAt))} · ${e(invoice.productName ?? '')} · <strong>${e(money(invoice.amount, invoice.currency))}</strong> <span class="muted">${e(invoice.status)}</span></span>${invoice.invoicePdfUrl ? `<a href="${e(invoice.invoicePdfUrl)}" rel="noopener">Invoice (PDF)</a>` : '<span class="muted">No invoice document</span>'}</li>`)
        .join('')}</ul>`
    : '<p class="muted">No payments yet.</p>';
  const content = `<h1>Your account</h1><p class="muted">Signed in as <strong>${e(account.email)}</strong>.</p>
${notice ? `<p class="notice" role="status">${e(notice)}</p>` : ''}
<h2>Licenses</h2>${account.licenses.length ? account.licenses.map((license) => licenseCard(license, preview)).join('') : '<p class="muted">No licenses.</p>'}
<h2>Downloads</h2><section class="card">${downloads}</section>
${account.subscriptions.length ? `<h2>Subscriptions</h2>${account.subscriptions.map((subscription) => subscriptionCard(subscription, preview)).join('')}` : ''}
<h2>Payments</h2><section class="card">${invoices}</section>`;
  const banner = preview ? `<p class="preview-banner" role="note">Preview: you are viewing the portal as ${e(account.email)}. Changes are disabled.</p>` : '';
  return htmlPage(200, 'Your account', banner + content, branding, { headerAction: actionButton('/portal/sign-out', 'Sign out') });
}
