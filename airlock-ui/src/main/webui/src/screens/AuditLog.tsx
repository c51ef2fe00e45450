import { useState } from 'react';
import { audit, AUDIT_ACTIONS } from '../api/services';
import type { AuditEntry } from '../api/types';
import { useAsync } from '../components/useAsync';
import { AsyncView, Pager, formatTime } from '../components/ui';

const PAGE_SIZE = 50;

function show(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function AuditLog() {
  const [filter, setFilter] = useState({ actor: '', action: '', subjectId: '' });
  const [page, setPage] = useState(0);
  const state = useAsync(() => audit.list(filter, page, PAGE_SIZE), [JSON.stringify(filter), page]);
  const setF = (k: keyof typeof filter, v: string) => { setFilter((f) => ({ ...f, [k]: v })); setPage(0); };

  return (
    <section>
      <h1>Audit log</h1>
      <div className="filters" role="search">
        <label>Who<input value={filter.actor} onChange={(e) => setF('actor', e.target.value)} aria-label="filter by actor" /></label>
        <label>Action<select value={filter.action} onChange={(e) => setF('action', e.target.value)} aria-label="filter by action">
          <option value="">all</option>{AUDIT_ACTIONS.map((a) => <option key={a} value={a}>{a.toLowerCase().replace(/_/g, ' ')}</option>)}
        </select></label>
        <label>Subject id<input value={filter.subjectId} onChange={(e) => setF('subjectId', e.target.value)} aria-label="filter by subject" /></label>
      </div>
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="No audit entries match.">
        {(p) => (
          <>
            <table className="table audit" data-testid="audit-table">
              <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Subject</th><th>What happened</th><th>Before → after</th></tr></thead>
              <tbody>
                {p.items.map((e: AuditEntry, i) => (
                  <tr key={String(e.id ?? i)}>
                    <td>{formatTime(e.at)}</td>
                    <td>{e.actor ?? '—'}</td>
                    <td className="mono">{e.action ?? '—'}</td>
                    <td className="mono small">{e.subjectType ? `${e.subjectType.toLowerCase()} ` : ''}{e.subjectId ?? ''}</td>
                    <td>{e.summary ?? ''}{e.reason ? <div>Reason: {e.reason}</div> : null}</td>
                    <td className="small mono change-cell">{(e.before ?? e.beforeState) != null && <div className="diff-old">{show(e.before ?? e.beforeState)}</div>}{(e.after ?? e.afterState) != null && <div className="diff-new">{show(e.after ?? e.afterState)}</div>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
