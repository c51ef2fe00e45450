import { useCallback, useEffect, useState } from 'react';
import { onUnauthorized } from './api/http';
import { session as sessionApi, SessionInfo } from './api/services';
import { Spinner } from './components/ui';
import { SessionProvider } from './components/session';
import { Login } from './screens/Login';
import { Shell } from './screens/Shell';

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);

  const refresh = useCallback(() => {
    sessionApi.me().then(setSession, () => setSession(null));
  }, []);

  useEffect(() => { refresh(); }, [refresh]);
  useEffect(() => onUnauthorized(() => { setExpired(true); setSession(null); }), []);

  if (session === undefined) return <Spinner label="Starting…" />;
  if (session === null) {
    return <Login expired={expired} onSignedIn={() => { setExpired(false); refresh(); }} />;
  }
  return (
    <SessionProvider value={session}>
      <Shell onSignedOut={() => setSession(null)} />
    </SessionProvider>
  );
}
