import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PORTAL_SETTINGS_KEY } from '../account/PortalSection';

/**
 * "View as customer" (issue 51): the hosted portal as this customer sees it, read-only, in a new tab. Shown while the
 * portal is on; a member whose role may not read the portal settings gets the button anyway, and the service's answer
 * says when the portal is off.
 */
export function ViewAsCustomer({ customerId }: { customerId: string }) {
  const canReadSettings = useCan()('portal');
  const settings = useQuery({ queryKey: PORTAL_SETTINGS_KEY, queryFn: () => unwrap(api.GET('/api/portal-settings')), enabled: canReadSettings });
  const preview = useMutation({ mutationFn: () => unwrap(api.POST('/api/customers/{id}/portal-preview', { params: { path: { id: customerId } }, body: {} })) });
  // A browser that refused even the tab opened in the click: the link to open by hand.
  const [blockedUrl, setBlockedUrl] = useState<string>();
  if (canReadSettings && !settings.data?.enabled) return null;

  function open() {
    setBlockedUrl(undefined);
    // Opened now, in the click, which popup blockers allow (not once the link arrives); cut from this page, as `noopener` would.
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    preview.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url;
        else setBlockedUrl(url);
      },
      onError: () => tab?.close(),
    });
  }

  return (
    <>
      <button type="button" className="button" onClick={open} disabled={preview.isPending}>
        {preview.isPending ? 'Opening the preview…' : 'View as customer'}
      </button>
      {(preview.error || blockedUrl) && (
        <div className="page-head-note">
          <ErrorBanner error={preview.error} title="The preview did not open" />
          {blockedUrl && (
            <p role="status">
              Your browser blocked the new tab:{' '}
              <a href={blockedUrl} target="_blank" rel="noopener noreferrer">
                open the preview
              </a>{' '}
              (the link works once, for 5 minutes).
            </p>
          )}
        </div>
      )}
    </>
  );
}
