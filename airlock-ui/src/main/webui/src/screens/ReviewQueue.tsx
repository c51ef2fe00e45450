import { FormEvent, useEffect, useState } from 'react';
import { gaps, pending, PendingFilter, sources } from '../api/services';
import { changeOf, gapsOf, verbOf } from '../api/candidates';
import { RISKS } from '../api/types';
import { AdminOnly, useIsAdmin } from '../components/session';
import { fetchEarly } from '../api/http';
import { href, takeFlash, useHashQuery } from '../components/route';
import { useAsync } from '../components/useAsync';
import { AsyncView, ErrorBox, FilterField, Pager, PageSize, RiskBadge, SortHeader, StatusBadge } from '../components/ui';
import { ApproveDialog, Matching, RejectDialog } from './ApproveDialog';
import { SourcePicker } from '../components/SourcePicker';

/** The librarian's candidate statuses; APPROVED means approved and being built, ACTIVE built and in the catalog. */
const STATUSES = ['PENDING', 'BUILD_FAILED', 'APPROVED', 'ACTIVE', 'REJECTED', 'SUPERSEDED', 'WITHDRAWN', 'RETIRED'];
const DEFAULTS = { source: '', risk: '', status: 'PENDING,BUILD_FAILED', gap: '', q: '', sort: '-updated', page: '0', size: '25' };
/** A decision by filter covers at most this many tools (the librarian's limit). */
const MAX_MATCHING = 1000;

function describe(f: typeof DEFAULTS, sourceName?: string): string {
  const parts = [
    f.status ? `status ${f.status.toLowerCase().replace(/_/g, ' ').replace(',', ' or ')}` : 'any status',
    f.source ? `source ${sourceName ?? f.source}` : '',
    f.risk ? `risk ${f.risk.toLowerCase().replace('_', ' ')}` : '',
    f.gap ? `gap ${f.gap}` : '',
    f.q ? `text "${f.q}"` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/** What the queue asks the librarian for, given its URL's filters (shared with the early fetch at start). */
function listRequestOf(f: typeof DEFAULTS) {
  const page = Number(f.page) || 0;
  const size = Number(f.size) || 25;
  const filter: PendingFilter = { source: f.source, risk: f.risk, status: f.status || 'ALL', gap: f.gap, q: f.q };
  return { filter, page, size, sort: f.sort };
}

/**
 * Called once at start, before the session check answers: when the page opens on the review queue, its
 * list is requested at once, alongside the session check (a cold first paint then waits for one round trip).
 */
export function fetchQueueEarly(hash: string) {
  const [path, q] = hash.replace(/^#\/?/, '').split('?');
  if ((path || 'review') !== 'review') return;
  const params = new URLSearchParams(q ?? '');
  const f = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const v = params.get(key);
    if (v !== null) f[key] = v;
  }
  const r = listRequestOf(f);
  fetchEarly(pending.listPath(r.filter, r.page, r.size, r.sort));
}

export function ReviewQueue() {
  const isAdmin = useIsAdmin();
  const [f, setQuery] = useHashQuery(DEFAULTS);
  const { filter, page, size } = listRequestOf(f);
  const state = useAsync(() => pending.list(filter, page, size, f.sort), [f.source, f.risk, f.status, f.gap, f.q, f.sort, page, size]);
  const gapList = useAsync(() => gaps.list(0, 200), []);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const [notice, setNotice] = useState<string | null>(takeFlash);
  const [error, setError] = useState<Error | null>(null);
  const [text, setText] = useState(f.q);
  useEffect(() => setText(f.q), [f.q]);

  const clearSelection = () => { setSelected(new Set()); setAllMatching(false); };
  const setF = (changes: Partial<typeof DEFAULTS>) => { setQuery({ ...changes, page: '0' }); clearSelection(); };
  const toggle = (id: string) => { setAllMatching(false); setSelected((s) => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; }); };
  const items = state.data?.items ?? [];
  const total = state.data?.total ?? null;
  const allSelected = items.length > 0 && items.every((t) => selected.has(t.id));
  const selectedTools = items.filter((t) => selected.has(t.id));
  const [sourceName, setSourceName] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    if (f.source) sources.get(f.source).then((s) => { if (live) setSourceName(s.name); }, () => {});
    else setSourceName(undefined);
    return () => { live = false; };
  }, [f.source]);
  const matching: Matching | undefined = allMatching && total !== null
    ? { filter, count: total, description: describe(f, sourceName) } : undefined;
  const count = matching ? matching.count : selected.size;

  const done = (message: string) => { setDialog(null); clearSelection(); setNotice(message); setError(null); state.reload(); };
  const search = (e: FormEvent) => { e.preventDefault(); setF({ q: text.trim() }); };
  const sortBy = (key: string) => setQuery({ sort: f.sort === key ? `-${key}` : key, page: '0' });

  return (
    <section>
      <div className="screen-head">
        <h1>Review queue</h1>
        <AdminOnly>
          <div className="bulk" role="group" aria-label="bulk actions">
            <span className="muted" data-testid="selected-count">{count} selected</span>
            <button className="btn btn-primary" disabled={count === 0} onClick={() => setDialog('approve')}>Approve selected…</button>
            <button className="btn btn-danger" disabled={count === 0} onClick={() => setDialog('reject')}>Reject selected…</button>
          </div>
        </AdminOnly>
      </div>
      <form className="filters" role="search" onSubmit={search}>
        <FilterField id="q-text" label="Search">
          <input id="q-text" type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={200}
            placeholder="verb, name, tool id, operation or source" />
        </FilterField>
        <button type="submit" className="btn">Search</button>
        <FilterField id="q-source" label="Source">
          <SourcePicker id="q-source" value={f.source} onChange={(source) => setF({ source })} />
        </FilterField>
        <FilterField id="q-risk" label="Risk">
          <select id="q-risk" value={f.risk} onChange={(e) => setF({ risk: e.target.value })}>
            <option value="">all</option>
            {RISKS.map((r) => <option key={r} value={r}>{r.toLowerCase().replace('_', ' ')}</option>)}
          </select>
        </FilterField>
        <FilterField id="q-status" label="Status">
          <select id="q-status" value={f.status} onChange={(e) => setF({ status: e.target.value })}>
            <option value="PENDING,BUILD_FAILED">waiting for a decision</option>
            <option value="">all</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s.toLowerCase().replace('_', ' ')}</option>)}
          </select>
        </FilterField>
        <FilterField id="q-gap" label="Gap">
          <select id="q-gap" value={f.gap} onChange={(e) => setF({ gap: e.target.value })}>
            <option value="">any</option>
            {(gapList.data?.items ?? []).map((g) => <option key={g.normalizedVerb} value={g.normalizedVerb}>{g.actionVerb} (seen {g.timesSeen}×)</option>)}
          </select>
        </FilterField>
        <PageSize size={size} onSize={(n) => setF({ size: String(n) })} />
      </form>
      {notice && <p className="state state-success" role="status">{notice}</p>}
      {error && <ErrorBox error={error} />}
      {isAdmin && allSelected && total !== null && total > items.length && (
        <p className="select-all-matching" role="status">
          {allMatching
            ? <>All <strong>{total}</strong> tools that match are selected. <button className="btn-link" onClick={clearSelection}>Clear the selection</button></>
            : total > MAX_MATCHING
              ? <>All {items.length} on this page are selected. {total} tools match: narrow the filter to {MAX_MATCHING} or fewer to decide on all of them at once.</>
              : <>All {items.length} on this page are selected. <button className="btn-link" onClick={() => setAllMatching(true)}>Select all {total} tools that match</button></>}
        </p>
      )}
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0}
        empty={f.q ? `No tool matches "${f.q}" with these filters.` : 'No tools waiting for review with these filters. Scanning a source adds its new and changed operations here.'}>
        {(p) => (
          <>
            <div className="table-scroll">
              <table className="table queue-table">
                <thead>
                  <tr>
                    {isAdmin && <th><input type="checkbox" aria-label="select all on this page" checked={allSelected} onChange={() => { setAllMatching(false); setSelected(allSelected ? new Set() : new Set(items.map((t) => t.id))); }} /></th>}
                    <SortHeader label="Verb" sortKey="verb" sort={f.sort} onSort={sortBy} />
                    <SortHeader label="Name" sortKey="name" sort={f.sort} onSort={sortBy} />
                    <th>Summary</th>
                    <SortHeader label="Risk" sortKey="risk" sort={f.sort} onSort={sortBy} />
                    <SortHeader label="Source" sortKey="source" sort={f.sort} onSort={sortBy} />
                    <th>New / changed</th>
                    <SortHeader label="Status" sortKey="status" sort={f.sort} onSort={sortBy} />
                    <SortHeader label="Updated" sortKey="updated" sort={f.sort} onSort={sortBy} />
                    <th>Gap</th>
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((t) => (
                    <tr key={t.id} data-testid={`pending-${verbOf(t)}`}>
                      {isAdmin && <td><input type="checkbox" aria-label={`select ${verbOf(t)}`} checked={allMatching || selected.has(t.id)} onChange={() => toggle(t.id)} /></td>}
                      <td><a className="mono" href={href(`review/${encodeURIComponent(t.id)}`)}>{verbOf(t)}</a>{t.operationKey && <div className="small muted mono">{t.operationKey}</div>}</td>
                      <td>{t.name ?? '—'}</td>
                      <td><div className="summary-cell" title={t.description ?? undefined}>{t.description || '—'}</div></td>
                      <td><RiskBadge risk={t.risk} /></td>
                      <td>{t.sourceId ? <a href={href(`sources?q=${encodeURIComponent(t.sourceName ?? '')}`)}>{t.sourceName ?? t.sourceId}</a> : (t.sourceName ?? '—')}</td>
                      <td><span className={`badge change-${changeOf(t)}`}>{changeOf(t)}</span>{t.collision === 'REFUSED' && <span className="badge change-refused" title="its verb or id belongs to another tool; open it for the reason">cannot be approved</span>}</td>
                      <td><StatusBadge status={t.status} /></td>
                      <td className="small nowrap">{t.updatedAt ? new Date(t.updatedAt).toLocaleString() : '—'}</td>
                      <td>{gapsOf(t).map((g) => <span key={g} className="badge gap mono">{g}</span>)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} size={size} total={p.total} count={p.items.length} onPage={(n) => { setQuery({ page: String(n) }); if (!allMatching) setSelected(new Set()); }} />
          </>
        )}
      </AsyncView>
      {dialog === 'approve' && (
        <ApproveDialog tools={selectedTools} matching={matching} onClose={() => setDialog(null)}
          onDone={(n, failures) => done(`Approved ${n} tool${n === 1 ? '' : 's'}: the engineer is building ${n === 1 ? 'its wrapper' : 'their wrappers'}.${failures.length ? ` Not approved: ${failures.join('; ')}` : ''}`)} />
      )}
      {dialog === 'reject' && (
        <RejectDialog tools={selectedTools} matching={matching} onClose={() => setDialog(null)}
          onDone={(n, failures) => done(`Rejected ${n} tool${n === 1 ? '' : 's'}.${failures.length ? ` Not rejected: ${failures.join('; ')}` : ''}`)} />
      )}
    </section>
  );
}
