import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { useMe } from '../auth/session';
import { VerificationNotice } from '../auth/VerificationNotice';
import { applyTheme, initialTheme, type Theme } from '../theme';

const NAV = [
  { to: '/overview', label: 'Overview' },
  { to: '/products', label: 'Products' },
  { to: '/licenses', label: 'Licenses' },
  { to: '/customers', label: 'Customers' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/coupons', label: 'Coupons' },
  { to: '/payment-provider', label: 'Payments' },
  { to: '/account', label: 'Account' },
  { to: '/imports', label: 'Import' },
];

/** The signed-in frame: skip link, navigation, who is signed in, theme and sign-out. */
export function Layout() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
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
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="topbar-end">
          <span className="muted who">{me.data?.email}</span>
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
