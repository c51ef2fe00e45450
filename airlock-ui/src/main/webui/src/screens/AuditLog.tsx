import { whoOf } from '../components/who';
import { audit, AUDIT_ACTIONS } from '../api/services';
import type { AuditEntry } from '../api/types';
import { useHashQuery } from '../components/route';
import { AdminOnly } from '../components/session';
import { Lockouts } from './Lockouts';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, FilterField, Pager, formatTime } from '../components/ui';

const PAGE_SIZE = 50;

function show(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const DEFAULTS = { actor: '', action: '', subjectId: '', page: '0' };

export function AuditLog() {
  // filters and page live in the URL, so another screen can link to a subject's entries (#/audit?subjectId=…)
  const [f, setQuery] = useHashQuery(DEFAULTS);
  const filter = { actor: f.actor, action: f.action, subjectId: f.subjectId };
  const page = Number(f.page) || 0;
  const state = useAsync(() => audit.list(filter, page, PAGE_SIZE), [f.actor, f.action, f.subjectId, page]);
  usePolling(state.refresh, 15000, page === 0);
  const setF = (k: keyof typeof filter, v: string) => setQuery({ [k]: v, page: '0' });
  const setPage = (n: number) => setQuery({ page: String(n) });

  return (
    <section>
      <h1>Audit log</h1>
      <AdminOnly><Lockouts /></AdminOnly>
      <div className="filters" role="search">
        <FilterField id="a-actor" label="Who"><input id="a-actor" value={filter.actor} onChange={(e) => setF('actor', e.target.value)} /></FilterField>
        <FilterField id="a-action" label="Action"><select id="a-action" value={filter.action} onChange={(e) => setF('action', e.target.value)}>
          <option value="">all</option>{AUDIT_ACTIONS.map((a) => <option key={a} value={a}>{a.toLowerCase().replace(/_/g, ' ')}</option>)}
        </select></FilterField>
        <FilterField id="a-subject" label="Subject id"><input id="a-subject" value={filter.subjectId} onChange={(e) => setF('subjectId', e.target.value)} /></FilterField>
      </div>
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="No audit entries match.">
        {(p) => (
          <>
            <div className="table-scroll">
            <table className="table audit" data-testid="audit-table">
              <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Subject</th><th>What happened</th><th>Before → after</th></tr></thead>
              <tbody>
                {p.items.map((e: AuditEntry, i) => (
                  <tr key={String(e.id ?? i)}>
                    <td>{formatTime(e.at)}</td>
                    <td>{whoOf(e.actor)}</td>
                    <td className="mono">{e.action ?? '—'}</td>
                    <td className="mono small">{e.subjectType ? `${e.subjectType.toLowerCase()} ` : ''}{e.subjectId ?? ''}</td>
                    <td>{e.summary ?? ''}{e.reason ? <div>Reason: {e.reason}</div> : null}</td>
                    <td className="small mono change-cell">{(e.before ?? e.beforeState) != null && <div className="diff-old">{show(e.before ?? e.beforeState)}</div>}{(e.after ?? e.afterState) != null && <div className="diff-new">{show(e.after ?? e.afterState)}</div>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
            <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
