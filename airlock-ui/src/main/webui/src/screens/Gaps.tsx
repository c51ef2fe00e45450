import { gaps } from '../api/services';
import { href, useHashQuery } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, Pager, PageSize, StatusBadge, formatTime } from '../components/ui';

const DEFAULTS = { page: '0', size: '25' };

/**
 * Capability gaps: what planners asked for and nothing in the catalog did, most frequent first, with the
 * candidates the librarian matched to each (and how confident that match is) and the engineer's draft.
 */
export function Gaps() {
  const [f, setQuery] = useHashQuery(DEFAULTS);
  const page = Number(f.page) || 0;
  const size = Number(f.size) || 25;
  const state = useAsync(() => gaps.list(page, size), [page, size]);
  usePolling(state.refresh, 15000);
  return (
    <section>
      <div className="screen-head"><h1>Capability gaps</h1></div>
      <p className="muted">Capabilities planners asked for that no tool in the catalog offers, most frequent first. A match is a candidate in the review queue that could fill the gap.</p>
      <div className="filters"><PageSize size={size} onSize={(n) => setQuery({ size: String(n), page: '0' })} /></div>
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0}
        empty="No capability gaps: every capability planners asked for was found in the catalog.">
        {(p) => (
          <>
            <div className="table-scroll">
              <table className="table" data-testid="gaps-table">
                <thead><tr><th>Gap</th><th>Description</th><th className="num">Seen</th><th>Last seen</th><th>Matching candidates (confidence)</th><th>Draft</th></tr></thead>
                <tbody>
                  {p.items.map((g) => (
                    <tr key={g.normalizedVerb} data-testid={`gap-${g.normalizedVerb}`}>
                      <td><a className="mono" href={href(`review?gap=${encodeURIComponent(g.normalizedVerb)}&status=`)}>{g.actionVerb}</a></td>
                      <td>{g.description || '—'}</td>
                      <td className="num">{g.timesSeen}</td>
                      <td className="small nowrap">{formatTime(g.lastSeenAt)}</td>
                      <td>{(g.matches ?? []).length === 0 ? <span className="muted">none</span> : (
                        <ul className="plain">
                          {(g.matches ?? []).map((m) => (
                            <li key={m.candidateId}>
                              <a className="mono" href={href(`review/${encodeURIComponent(m.candidateId)}`)}>{m.name ?? m.toolId}</a>{' '}
                              <span className="badge">{Math.round(m.confidence * 100)}% confident</span> <StatusBadge status={m.status} />
                            </li>
                          ))}
                        </ul>
                      )}</td>
                      <td>{g.draft ? <a href={href(`review/${encodeURIComponent(g.draft.candidateId)}`)}>draft {g.draft.toolId}</a> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} size={size} total={p.total} count={p.items.length} onPage={(n) => setQuery({ page: String(n) })} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
