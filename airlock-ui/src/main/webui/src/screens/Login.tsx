import { FormEvent, useState } from 'react';
import { session, SignInMethod } from '../api/services';

export function Login({ onSignedIn, expired, signIn }: {
  onSignedIn: () => void;
  expired?: boolean;
  /** Absent or 'password': the password form. 'oidc': a button to the identity provider instead. */
  signIn?: SignInMethod;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) {
      setError('Enter your user name and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await session.login(username.trim(), password);
      onSignedIn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (signIn?.signIn === 'oidc') {
    return (
      <main className="login">
        <div className="login-card">
          <h1><span className="logo" aria-hidden>⚒</span> Toolsmith Airlock</h1>
          <p className="muted">Review and approve the external tools your agents may use.</p>
          {expired && <p className="state state-info">Your session ended. Please sign in again.</p>}
          {/* A plain link: the sign-in is a top-level navigation to the provider and back. */}
          <a className="btn btn-primary" href={signIn.loginUrl}>Sign in with {signIn.provider}</a>
        </div>
      </main>
    );
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} noValidate>
        <h1><span className="logo" aria-hidden>⚒</span> Toolsmith Airlock</h1>
        <p className="muted">Review and approve the external tools your agents may use.</p>
        {expired && <p className="state state-info">Your session ended. Please sign in again.</p>}
        <label htmlFor="login-user">User name</label>
        <input id="login-user" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
        <label htmlFor="login-password">Password</label>
        <input id="login-password" type="password" autoComplete="current-password" value={password}
          onChange={(e) => setPassword(e.target.value)} />
        {error && <p className="field-error" role="alert">{error}</p>}
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
