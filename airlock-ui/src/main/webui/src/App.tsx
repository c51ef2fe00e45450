import { useCallback, useEffect, useRef, useState } from 'react';
import { onUnauthorized } from './api/http';
import { session as sessionApi, SessionInfo, SignInMethod } from './api/services';
import { Spinner } from './components/ui';
import { SessionProvider } from './components/session';
import { Login } from './screens/Login';
import { Shell } from './screens/Shell';

export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  const [signIn, setSignIn] = useState<SignInMethod | undefined>(undefined);

  const refresh = useCallback(() => {
    sessionApi.me().then(setSession, () => setSession(null));
  }, []);

  useEffect(() => { refresh(); }, [refresh]);
  useEffect(() => {
    if (session === null && signIn === undefined) sessionApi.signInMethod().then(setSignIn);
  }, [session, signIn]);
  // "Your session ended" only for someone who had one: a brand-new browser's first 401 just asks to sign in.
  const hadSession = useRef(false);
  useEffect(() => { if (session) hadSession.current = true; }, [session]);
  useEffect(() => onUnauthorized(() => { if (hadSession.current) setExpired(true); setSession(null); }), []);

  if (session === undefined || (session === null && signIn === undefined)) return <Spinner label="Starting…" />;
  if (session === null) {
    return <Login expired={expired} signIn={signIn} onSignedIn={() => { setExpired(false); refresh(); }} />;
  }
  return (
    <SessionProvider value={session}>
      <Shell onSignedOut={() => setSession(null)} />
    </SessionProvider>
  );
}
