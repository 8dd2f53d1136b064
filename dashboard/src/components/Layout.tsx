import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { useCan, type Permission } from '../auth/permissions';
import { useMe } from '../auth/session';
import { NavMenu } from './NavMenu';
import { TenantSwitcher } from './TenantSwitcher';
import { VerificationNotice } from '../auth/VerificationNotice';
import { applyTheme, initialTheme, type Theme } from '../theme';

type NavItem = { to: string; label: string; permission: Permission };

/** The pages used daily, always in sight. */
const MAIN: NavItem[] = [
  { to: '/overview', label: 'Overview', permission: 'read' },
  { to: '/products', label: 'Products', permission: 'read' },
  { to: '/licenses', label: 'Licenses', permission: 'read' },
  { to: '/customers', label: 'Customers', permission: 'read' },
];

/** The rest in two menus, so the header fits one row at 1280 px; each page shown to the roles that may use it. */
const GROUPS: { label: string; items: NavItem[] }[] = [
  {
    label: 'Sales',
    items: [
      { to: '/coupons', label: 'Coupons', permission: 'read' },
      { to: '/payment-provider', label: 'Payments', permission: 'paymentProvider' },
    ],
  },
  {
    label: 'Settings',
    items: [
      { to: '/account', label: 'Account', permission: 'account' },
      { to: '/team', label: 'Team', permission: 'read' },
      { to: '/webhooks', label: 'Webhooks', permission: 'read' },
      { to: '/imports', label: 'Import', permission: 'data' },
      { to: '/audit-log', label: 'Audit log', permission: 'auditLog' },
    ],
  },
];

/** The signed-in frame: skip link, navigation, who is signed in, theme and sign-out. */
export function Layout() {
  const me = useMe();
  const can = useCan();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    onSettled: () => {
      queryClient.clear();
      void navigate('/sign-in');
    },
  });
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next, true);
    setTheme(next);
  };
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Licensing</span>
        <nav aria-label="Main" className="nav">
          {MAIN.filter((item) => can(item.permission)).map((item) => (
            <NavLink key={item.to} to={item.to}>
              {item.label}
            </NavLink>
          ))}
          {GROUPS.map((group) => {
            const items = group.items.filter((item) => can(item.permission));
            if (items.length === 0) return null;
            return (
              <NavMenu key={group.label} label={group.label} current={items.some((item) => pathname.startsWith(item.to))}>
                {items.map((item) => (
                  <NavLink key={item.to} to={item.to}>
                    {item.label}
                  </NavLink>
                ))}
              </NavMenu>
            );
          })}
        </nav>
        <div className="topbar-end">
          <TenantSwitcher />
          <span className="muted who" title={me.data?.email}>
            {me.data?.email}
          </span>
          <button type="button" className="button button-small" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? 'Light' : 'Dark'}
          </button>
          <button type="button" className="button button-small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <VerificationNotice />
        <Outlet />
      </main>
    </div>
  );
}
