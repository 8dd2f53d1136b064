import { Link } from 'react-router';
import { useProductChoices } from '../products/productQueries';

/**
 * What a bundle's license is a key for (DECISIONS §23): the bundle's included products that still exist, each linked to
 * its page. Nothing for a license of any other product.
 */
export function BundleProducts({ includes }: { includes: string[] | undefined }) {
  const products = useProductChoices();
  if (!includes || includes.length === 0) return null;
  const live = includes.map((id) => products.data?.find((product) => product.id === id)).filter((product) => product !== undefined);
  return (
    <>
      <dt>Products</dt>
      <dd>
        {products.isPending ? (
          'Loading…'
        ) : (
          <ul className="plain-list" aria-label="Products of the bundle">
            {live.map((product) => (
              <li key={product.id}>
                <Link to={`/products/${product.id}`}>{product.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </dd>
    </>
  );
}
