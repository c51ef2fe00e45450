import { whoOf } from '../components/who';
import { audit, catalog, pending, plugins } from '../api/services';
import type { AuditEntry, PendingTool } from '../api/types';
import { href } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, StatusBadge, formatTime } from '../components/ui';

type Rec = Record<string, unknown>;

/** One thing that happened to a tool, from whichever service recorded it. */
export interface HistoryEvent { at: string; kind: string; what: string; who?: string; link?: string }

/** The revisions of a tool id the review queue has held, newest first (the search also finds look-alike ids). */
async function revisionsOf(toolId: string): Promise<PendingTool[]> {
  const page = await pending.list({ q: toolId, status: 'ALL' }, 0, 200, '-updated');
  return page.items.filter((c) => c.toolId === toolId);
}

async function auditOf(subjectId: string): Promise<AuditEntry[]> {
  return (await audit.list({ subjectId }, 0, 100)).items;
}

/**
 * A tool's whole story on one page: each revision the queue held and what became of it, approvals,
 * rejections and policy changes (the librarian's audit log), catalogued versions, and status changes and
 * failed probes in the capabilities manager, with who and why. Parts a service cannot answer (a tool never
 * registered has no plugin) are simply absent.
 */
export async function loadHistory(toolId: string): Promise<{ events: HistoryEvent[]; revisions: PendingTool[] }> {
  const [revisions, toolAudit, details, plugin] = await Promise.all([
    revisionsOf(toolId), auditOf(toolId), catalog.get(toolId).catch(() => null), plugins.get(toolId).catch(() => null),
  ]);
  const candidateAudit = (await Promise.all(revisions.slice(0, 20).map((r) => auditOf(r.id)))).flat();
  const events: HistoryEvent[] = [];
  for (const e of [...toolAudit, ...candidateAudit]) {
    if (!e.at) continue;
    events.push({ at: e.at, kind: e.action ?? 'AUDIT', what: e.summary ?? '', who: e.actor,
      link: e.subjectType === 'candidate' && e.subjectId ? href(`review/${encodeURIComponent(e.subjectId)}`) : undefined });
  }
  for (const v of ((details?.versions ?? []) as Rec[])) {
    if (typeof v.createdAt === 'string') events.push({ at: v.createdAt, kind: 'VERSION', what: `version ${String(v.version)} catalogued`, link: href(`catalog/${encodeURIComponent(toolId)}`) });
  }
  for (const s of ((plugin?.statusHistory ?? []) as Rec[])) {
    if (typeof s.at === 'string') events.push({ at: s.at, kind: `STATUS ${String(s.status ?? '')}`, what: String(s.reason ?? ''), who: s.by ? String(s.by) : undefined, link: href(`health/${encodeURIComponent(toolId)}`) });
  }
  for (const h of ((plugin?.healthHistory ?? []) as Rec[])) {
    if (typeof h.at === 'string' && h.ok === false) events.push({ at: h.at, kind: 'PROBE FAILED', what: String(h.error ?? h.reason ?? 'failed'), link: href(`health/${encodeURIComponent(toolId)}`) });
  }
  events.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return { events, revisions };
}

export function History({ toolId }: { toolId: string }) {
  const state = useAsync(() => loadHistory(toolId), [toolId]);
  usePolling(state.refresh, 15000);
  return (
    <section>
      <h1>History of <span className="mono">{toolId}</span></h1>
      <p className="related">
        <a href={href(`catalog/${encodeURIComponent(toolId)}`)}>In the catalog</a> · <a href={href(`health/${encodeURIComponent(toolId)}`)}>Health and usage</a> · <a href={href(`builds?toolId=${encodeURIComponent(toolId)}`)}>Builds</a> · <a href={href(`audit?subjectId=${encodeURIComponent(toolId)}`)}>Audit log</a>
      </p>
      <AsyncView state={state} isEmpty={(h) => h.events.length === 0 && h.revisions.length === 0}
        empty="Nothing recorded for this tool id: no revision was ever in the review queue and no service knows it.">
        {({ events, revisions }) => (
          <>
            <h2>Revisions</h2>
            {revisions.length === 0 ? <p className="muted">None in the review queue.</p> : (
              <div className="table-scroll"><table className="table" data-testid="history-revisions">
                <thead><tr><th>Revision</th><th>Source</th><th>Status</th><th>Updated</th></tr></thead>
                <tbody>{revisions.map((r) => (
                  <tr key={r.id}><td><a href={href(`review/${encodeURIComponent(r.id)}`)}>revision {r.revision ?? '—'}</a></td>
                    <td>{r.sourceName ? <a href={href(`sources?q=${encodeURIComponent(r.sourceName)}`)}>{r.sourceName}</a> : '—'}</td>
                    <td><StatusBadge status={r.status} /></td><td className="small nowrap">{formatTime(r.updatedAt)}</td></tr>
                ))}</tbody>
              </table></div>
            )}
            <h2>What happened</h2>
            <div className="table-scroll"><table className="table" data-testid="history-events">
              <thead><tr><th>When</th><th>What</th><th>Details</th><th>Who</th></tr></thead>
              <tbody>{events.map((e, i) => (
                <tr key={i}><td className="small nowrap">{formatTime(e.at)}</td><td><span className="badge mono">{e.kind}</span></td>
                  <td>{e.link ? <a href={e.link}>{e.what || 'open'}</a> : e.what}</td><td>{whoOf(e.who)}</td></tr>
              ))}</tbody>
            </table></div>
          </>
        )}
      </AsyncView>
    </section>
  );
}
