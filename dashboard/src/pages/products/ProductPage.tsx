import { Link, NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import type { Product } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { useProduct } from './productQueries';

const TABS = [
  { to: '', label: 'Settings', end: true },
  { to: 'releases', label: 'Releases' },
  { to: 'plans', label: 'Plans' },
  { to: 'analytics', label: 'Analytics' },
];

/** A product's frame: its name and the tabs; each tab gets the product from `useCurrentProduct`. */
export function ProductPage() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);
  return (
    <QueryView query={product} loading="Loading the product…">
      {(data) => (
        <>
          <p className="breadcrumb">
            <Link to="/products">Products</Link> /
          </p>
          <div className="page-head">
            <h1>
              {data.icon && <span aria-hidden="true">{data.icon} </span>}
              {data.name}
            </h1>
            <StatusBadge status={data.deletedAt ? 'deleted' : data.status} />
          </div>
          {data.deletedAt ? (
            <p className="banner">This product was deleted: plugins no longer find it.</p>
          ) : (
            <>
              <nav className="tabs" aria-label="Product sections">
                {TABS.map((tab) => (
                  <NavLink key={tab.label} to={tab.to} end={tab.end}>
                    {tab.label}
                  </NavLink>
                ))}
              </nav>
              <Outlet context={data} />
            </>
          )}
        </>
      )}
    </QueryView>
  );
}

export const useCurrentProduct = () => useOutletContext<Product>();
