import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Feedback } from '../../api/types';
import { formatDate } from '../../components/format';
import { Pager } from '../../components/Pager';
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
        <label className="inline-label">
          Type
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value as Feedback['type'] | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
      </div>
      <QueryView query={feedback} loading="Loading feedback…" isEmpty={(data) => data.items.length === 0} empty={<p>No feedback yet.</p>}>
        {(data) => (
          <>
            <ul className="list">
              {data.items.map((item) => (
                <li key={item.id} className="card">
                  <div className="row-head">
                    <StatusBadge status={item.type} />
                    <span className="muted small">{formatDate(item.createdAt)}</span>
                  </div>
                  <p className="prewrap">{item.message}</p>
                  <p className="muted small">
                    {[item.email, item.domain, item.licenseKey].filter(Boolean).join(' · ') || 'anonymous'}
                  </p>
                </li>
              ))}
            </ul>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
  );
}
