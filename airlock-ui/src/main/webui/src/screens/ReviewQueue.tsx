import { useState } from 'react';
import { gaps, pending, sources } from '../api/services';
import { changeOf, gapsOf, verbOf } from '../api/candidates';
import { RISKS } from '../api/types';
import { AdminOnly, useIsAdmin } from '../components/session';
import { href } from '../components/route';
import { useAsync } from '../components/useAsync';
import { AsyncView, ErrorBox, Pager, RiskBadge, StatusBadge } from '../components/ui';
import { ApproveDialog, RejectDialog } from './ApproveDialog';

const PAGE_SIZE = 25;
/** The librarian's candidate statuses; APPROVED means approved and being built, ACTIVE built and in the catalog. */
const STATUSES = ['PENDING', 'BUILD_FAILED', 'APPROVED', 'ACTIVE', 'REJECTED', 'SUPERSEDED'];

export function ReviewQueue() {
  const isAdmin = useIsAdmin();
  const [filter, setFilter] = useState({ source: '', risk: '', status: 'PENDING', gap: '' });
  const [page, setPage] = useState(0);
  const state = useAsync(() => pending.list(filter, page, PAGE_SIZE), [JSON.stringify(filter), page]);
  const sourceList = useAsync(() => sources.list(0, 500), []);
  const gapList = useAsync(() => gaps.list(0, 200), []);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const setF = (k: keyof typeof filter, v: string) => { setFilter((f) => ({ ...f, [k]: v })); setPage(0); setSelected(new Set()); };
  const toggle = (id: string) => setSelected((s) => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; });
  const items = state.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((t) => selected.has(t.id));
  const selectedTools = items.filter((t) => selected.has(t.id));

  const done = (message: string) => { setDialog(null); setSelected(new Set()); setNotice(message); setError(null); state.reload(); };

  return (
    <section>
      <div className="screen-head">
        <h1>Review queue</h1>
        <AdminOnly>
          <div className="bulk" aria-label="bulk actions">
            <span className="muted">{selected.size} selected</span>
            <button className="btn btn-primary" disabled={selected.size === 0} onClick={() => setDialog('approve')}>Approve selected…</button>
            <button className="btn btn-danger" disabled={selected.size === 0} onClick={() => setDialog('reject')}>Reject selected…</button>
          </div>
        </AdminOnly>
      </div>
      <div className="filters" role="search">
        <label>Source
          <select value={filter.source} onChange={(e) => setF('source', e.target.value)} aria-label="filter by source">
            <option value="">all</option>
            {(sourceList.data?.items ?? []).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </select>
        </label>
        <label>Risk
          <select value={filter.risk} onChange={(e) => setF('risk', e.target.value)} aria-label="filter by risk">
            <option value="">all</option>
            {RISKS.map((r) => <option key={r} value={r}>{r.toLowerCase().replace('_', ' ')}</option>)}
          </select>
        </label>
        <label>Status
          <select value={filter.status} onChange={(e) => setF('status', e.target.value)} aria-label="filter by status">
            <option value="">all</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s.toLowerCase().replace('_', ' ')}</option>)}
          </select>
        </label>
        <label>Gap
          <select value={filter.gap} onChange={(e) => setF('gap', e.target.value)} aria-label="filter by gap">
            <option value="">any</option>
            {(gapList.data?.items ?? []).map((g) => <option key={g.normalizedVerb} value={g.normalizedVerb}>{g.actionVerb} (seen {g.timesSeen}×)</option>)}
          </select>
        </label>
      </div>
      {notice && <p className="state state-info" role="status">{notice}</p>}
      {error && <ErrorBox error={error} />}
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0}
        empty="No tools waiting for review with these filters. Scanning a source adds its new and changed operations here.">
        {(p) => (
          <>
            <table className="table">
              <thead>
                <tr>
                  {isAdmin && <th><input type="checkbox" aria-label="select all" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((t) => t.id)))} /></th>}
                  <th>Verb</th><th>Name</th><th>Risk</th><th>Source</th><th>New / changed</th><th>Status</th><th>Gap</th>
                </tr>
              </thead>
              <tbody>
                {p.items.map((t) => (
                  <tr key={t.id} data-testid={`pending-${verbOf(t)}`}>
                    {isAdmin && <td><input type="checkbox" aria-label={`select ${verbOf(t)}`} checked={selected.has(t.id)} onChange={() => toggle(t.id)} /></td>}
                    <td><a className="mono" href={href(`review/${encodeURIComponent(t.id)}`)}>{verbOf(t)}</a>{t.operationKey && <div className="small muted mono">{t.operationKey}</div>}</td>
                    <td>{t.name ?? '—'}</td>
                    <td><RiskBadge risk={t.risk} /></td>
                    <td>{t.sourceName ?? t.sourceId ?? '—'}</td>
                    <td><span className={`badge change-${changeOf(t)}`}>{changeOf(t)}</span>{t.collision === 'REFUSED' && <span className="badge change-refused" title="its verb or id belongs to another tool; open it for the reason">cannot be approved</span>}</td>
                    <td><StatusBadge status={t.status} /></td>
                    <td>{gapsOf(t).map((g) => <span key={g} className="badge gap mono">{g}</span>)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={(n) => { setPage(n); setSelected(new Set()); }} />
          </>
        )}
      </AsyncView>
      {dialog === 'approve' && (
        <ApproveDialog tools={selectedTools} onClose={() => setDialog(null)}
          onDone={(n, failures) => done(`Approved ${n} tool${n === 1 ? '' : 's'}: the engineer is building ${n === 1 ? 'its wrapper' : 'their wrappers'}.${failures.length ? ` Not approved: ${failures.join('; ')}` : ''}`)} />
      )}
      {dialog === 'reject' && (
        <RejectDialog tools={selectedTools} onClose={() => setDialog(null)}
          onDone={(n, failures) => done(`Rejected ${n} tool${n === 1 ? '' : 's'}.${failures.length ? ` Not rejected: ${failures.join('; ')}` : ''}`)} />
      )}
    </section>
  );
}
