import { Allowed } from './auth/Allowed';
import { createBrowserRouter, Navigate, useSearchParams } from 'react-router';
import { RequireSession } from './auth/session';
import { Layout } from './components/Layout';
import { AccountPage } from './pages/account/AccountPage';
import { RegisterPage } from './pages/auth/RegisterPage';
import { SignInPage } from './pages/auth/SignInPage';
import { CouponsPage } from './pages/coupons/CouponsPage';
import { CustomerPage } from './pages/customers/CustomerPage';
import { CustomersPage } from './pages/customers/CustomersPage';
import { ImportPage } from './pages/imports/ImportPage';
import { NewCustomerPage } from './pages/customers/NewCustomerPage';
import { LicensePage } from './pages/licenses/LicensePage';
import { LicensesPage } from './pages/licenses/LicensesPage';
import { NewLicensePage } from './pages/licenses/NewLicensePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { PaymentProviderPage } from './pages/payments/PaymentProviderPage';
import { AnalyticsTab } from './pages/products/AnalyticsTab';
import { NewProductPage } from './pages/products/NewProductPage';
import { PlansTab } from './pages/products/PlansTab';
import { ProductPage } from './pages/products/ProductPage';
import { ProductSettingsTab } from './pages/products/ProductSettingsTab';
import { ProductsPage } from './pages/products/ProductsPage';
import { ReleasesTab } from './pages/products/ReleasesTab';
import { NewWebhookPage } from './pages/webhooks/NewWebhookPage';
import { WebhookPage } from './pages/webhooks/WebhookPage';
import { WebhooksPage } from './pages/webhooks/WebhooksPage';
import { TeamPage } from './pages/team/TeamPage';
import { AcceptInvitationPage } from './pages/team/AcceptInvitationPage';
import { AuditLogPage } from './pages/audit/AuditLogPage';

/**
 * `DASHBOARD_URL` is where OAuth sign-ins land: a failed one carries `?error=<code>` for the sign-in page to explain
 * (outside `RequireSession`, which would otherwise bury it in `next`). Verification links land here too
 * (`?verified=1`, `?error=invalid_token`): those go on to the signed-in pages, whose notice says how the link went.
 * Otherwise the landing page is the overview (how the business is doing).
 */
function Home() {
  const [search] = useSearchParams();
  const error = search.get('error');
  if (search.get('verified') === '1' || error === 'invalid_token') return <Navigate to={`/products?${search}`} replace />;
  return <Navigate to={error ? `/sign-in?error=${encodeURIComponent(error)}` : '/overview'} replace />;
}

export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/', element: <Home /> },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      { path: 'overview', element: <OverviewPage /> },
      { path: 'products', element: <ProductsPage /> },
      { path: 'products/new', element: <Allowed permission="catalog"><NewProductPage /></Allowed> },
      {
        path: 'products/:productId',
        element: <ProductPage />,
        children: [
          { index: true, element: <ProductSettingsTab /> },
          { path: 'releases', element: <ReleasesTab /> },
          { path: 'plans', element: <PlansTab /> },
          { path: 'analytics', element: <AnalyticsTab /> },
        ],
      },
      { path: 'licenses', element: <LicensesPage /> },
      { path: 'licenses/new', element: <Allowed permission="licenses"><NewLicensePage /></Allowed> },
      { path: 'licenses/:licenseId', element: <LicensePage /> },
      { path: 'customers', element: <CustomersPage /> },
      { path: 'customers/new', element: <Allowed permission="customers"><NewCustomerPage /></Allowed> },
      { path: 'customers/:customerId', element: <CustomerPage /> },
      { path: 'webhooks', element: <WebhooksPage /> },
      { path: 'webhooks/new', element: <Allowed permission="webhooks"><NewWebhookPage /></Allowed> },
      { path: 'webhooks/:webhookId', element: <WebhookPage /> },
      { path: 'coupons', element: <CouponsPage /> },
      { path: 'payment-provider', element: <Allowed permission="paymentProvider"><PaymentProviderPage /></Allowed> },
      { path: 'account', element: <AccountPage /> },
      { path: 'imports', element: <Allowed permission="data"><ImportPage /></Allowed> },
      { path: 'team', element: <TeamPage /> },
      { path: 'audit-log', element: <Allowed permission="auditLog"><AuditLogPage /></Allowed> },
      { path: 'accept-invitation', element: <AcceptInvitationPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
