import { builds } from '../api/services';
import { href, useHashQuery } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, FilterField, Pager, StatusBadge, formatTime } from '../components/ui';

const DEFAULTS = { state: '', toolId: '', page: '0' };
const STATES = ['RECEIVED', 'GENERATING', 'VERIFYING', 'SUCCEEDED', 'FAILED'];
const SIZE = 25;

/** The engineer's build jobs, newest first, followed live while any of them runs. */
export function Builds() {
  const [f, setQuery] = useHashQuery(DEFAULTS);
  const page = Number(f.page) || 0;
  const state = useAsync(() => builds.list({ state: f.state || undefined, toolId: f.toolId || undefined }, page, SIZE), [f.state, f.toolId, page]);
  const running = (state.data?.items ?? []).some((b) => !/^(succeeded|failed)$/i.test(b.state ?? ''));
  usePolling(state.refresh, running ? 2000 : 15000);
  return (
    <section>
      <div className="screen-head"><h1>Builds</h1></div>
      <p className="muted">Each approval is built into a wrapper by the engineer and verified before it enters the catalog.</p>
      <div className="filters">
        <FilterField id="b-state" label="State">
          <select id="b-state" value={f.state} onChange={(e) => setQuery({ state: e.target.value, page: '0' })}>
            <option value="">all</option>
            {STATES.map((s) => <option key={s} value={s}>{s.toLowerCase()}</option>)}
          </select>
        </FilterField>
        {f.toolId && <span className="filter">Tool <span className="mono">{f.toolId}</span> <button className="btn-link" onClick={() => setQuery({ toolId: '', page: '0' })}>all tools</button></span>}
      </div>
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="No builds yet: approving a tool starts one.">
        {(p) => (
          <>
            <div className="table-scroll">
              <table className="table" data-testid="builds-table">
                <thead><tr><th>Tool</th><th className="num">Version</th><th>State</th><th>Updated</th><th>Why it failed</th></tr></thead>
                <tbody>
                  {p.items.map((b) => (
                    <tr key={b.id}>
                      <td><a className="mono" href={href(`catalog/${encodeURIComponent(b.toolId ?? '')}`)}>{b.toolId}</a></td>
                      <td className="num">{b.version ?? '—'}</td>
                      <td><StatusBadge status={b.state} /></td>
                      <td className="small nowrap">{formatTime(b.updatedAt)}</td>
                      <td className="error-text">{b.failureReason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} size={SIZE} total={p.total} count={p.items.length} onPage={(n) => setQuery({ page: String(n) })} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
