import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Feedback } from '../../api/types';
import { CardList } from '../../components/CardList';
import { formatDate } from '../../components/format';
import { SelectFilter } from '../../components/ListHeader';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';

const TYPES: Feedback['type'][] = ['bug', 'feature', 'general'];

/** What installed copies sent as feedback, newest first, by type. */
export function FeedbackInbox({ productId }: { productId: string }) {
  const [page, setPage] = useState(1);
  const [type, setType] = useState<Feedback['type'] | ''>('');
  const feedback = useQuery({
    queryKey: ['products', productId, 'feedback', { page, type }],
    queryFn: () => unwrap(api.GET('/api/products/{id}/feedback', { params: { path: { id: productId }, query: { page: String(page), ...(type && { type }) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="feedback-heading">
      <div className="page-head">
        <h2 id="feedback-heading">Feedback inbox</h2>
        <SelectFilter
          className="inline-label"
          label="Type"
          anyLabel="All"
          value={type}
          options={TYPES.map((t) => ({ value: t, label: t }))}
          onChange={(value) => {
            setType(value as Feedback['type'] | '');
            setPage(1);
          }}
        />
      </div>
      <QueryView query={feedback} loading="Loading feedback…">
        {(data) => (
          <CardList items={data.items} empty={<p>No feedback yet.</p>} pages={{ pagination: data.pagination, onPage: setPage }}>
            {(item) => (
              <>
                <div className="row-head">
                  <StatusBadge status={item.type} />
                  <span className="muted small">{formatDate(item.createdAt)}</span>
                </div>
                <p className="prewrap">{item.message}</p>
                <p className="muted small">{[item.email, item.domain, item.licenseKey].filter(Boolean).join(' · ') || 'anonymous'}</p>
              </>
            )}
          </CardList>
        )}
      </QueryView>
    </section>
  );
}
