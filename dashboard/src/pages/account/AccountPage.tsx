import { useCan } from '../../auth/permissions';
import { useMe } from '../../auth/session';
import { QueryView } from '../../components/QueryView';
import { ApiKeysSection } from './ApiKeysSection';
import { ComposerSection } from './ComposerSection';
import { ExportSection } from './ExportSection';
import { PasswordSection } from './PasswordSection';
import { PortalSection } from './PortalSection';
import { ProfileSection } from './ProfileSection';

export function AccountPage() {
  const me = useMe();
  const can = useCan();
  return (
    <>
      <h1>Account</h1>
      <QueryView query={me} loading="Loading your account…">
        {(user) => (
          <>
            <ProfileSection user={user} />
            <PasswordSection hasPassword={user.hasPassword} />
          </>
        )}
      </QueryView>
      <ComposerSection />
      <ApiKeysSection />
      {can('portal') && <PortalSection />}
      {can('data') && <ExportSection />}
    </>
  );
}
