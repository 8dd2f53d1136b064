import { useMe } from '../../auth/session';
import { QueryView } from '../../components/QueryView';
import { ApiKeysSection } from './ApiKeysSection';
import { ExportSection } from './ExportSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';

export function AccountPage() {
  const me = useMe();
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
      <ApiKeysSection />
      <ExportSection />
    </>
  );
}
