import { useState } from 'react';
import { http } from '../api/http';
import { useAsync, usePolling } from '../components/useAsync';
import { formatTime } from '../components/ui';

/** One current sign-in lockout, as GET /api/session/lockouts lists it. */
export interface Lockout { kind: 'account' | 'address'; key: string; failures: number; lockedUntil: string }

/**
 * The accounts and client addresses the airlock UI has locked out after repeated failed sign-ins (admins
 * only: the list names user names and addresses), each with a button that lifts it.
 */
export function Lockouts() {
  const state = useAsync(() => http.get<{ lockouts: Lockout[] }>('/api/session/lockouts').then((b) => b.lockouts ?? []), []);
  usePolling(state.refresh, 15000);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lift = async (l: Lockout) => {
    setError(null);
    try {
      await http.del(`/api/session/lockouts/${l.kind}/${encodeURIComponent(l.key)}`);
      setNotice(`Lifted the lockout of ${l.kind} ${l.key}.`);
      state.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const list = state.data ?? [];
  return (
    <section aria-labelledby="lockouts-title" className="lockouts">
      <h2 id="lockouts-title">Sign-in lockouts</h2>
      {notice && <p className="state state-success" role="status">{notice}</p>}
      {error && <p className="state state-error" role="alert">{error}</p>}
      {state.status === 'error' ? <p className="state state-error" role="alert">{state.error.message}</p>
        : list.length === 0 ? <p className="muted">No account or address is locked out.</p> : (
          <table className="table" data-testid="lockouts">
            <thead><tr><th>Locked</th><th className="num">Failed sign-ins</th><th>Until</th><th>Actions</th></tr></thead>
            <tbody>{list.map((l) => (
              <tr key={`${l.kind}:${l.key}`}><td>{l.kind} <span className="mono">{l.key}</span></td><td className="num">{l.failures}</td>
                <td>{formatTime(l.lockedUntil)}</td>
                <td className="actions"><button className="btn btn-small" onClick={() => lift(l)}>Lift lockout of {l.kind} {l.key}</button></td></tr>
            ))}</tbody>
          </table>
        )}
    </section>
  );
}
