import { useCan } from '../../auth/permissions';
import { QueryView } from '../../components/QueryView';
import { ReleaseRow } from './ReleaseRow';
import { ReleaseUpload } from './ReleaseUpload';
import { useCurrentProduct } from './ProductPage';
import { useReleases } from './productQueries';

export function ReleasesTab() {
  const product = useCurrentProduct();
  const canUpload = useCan()('catalog');
  const releases = useReleases(product.id);
  return (
    <>
      {canUpload && <ReleaseUpload productId={product.id} releases={releases.data?.items ?? []} />}
      <section aria-labelledby="releases-heading">
        <h2 id="releases-heading">Releases</h2>
        <QueryView
          query={releases}
          loading="Loading releases…"
          isEmpty={(data) => data.items.length === 0}
          empty={<p>No releases yet. Upload a ZIP above: installed copies with a valid license get it as an update.</p>}
        >
          {(data) => (
            <ul className="list">
              {data.items.map((release) => (
                <ReleaseRow key={release.id} productId={product.id} release={release} />
              ))}
            </ul>
          )}
        </QueryView>
      </section>
    </>
  );
}
