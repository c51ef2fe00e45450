import { FormEvent, useState } from 'react';
import { catalog, pending } from '../api/services';
import type { Risk, SearchHit, ToolManifest } from '../api/types';
import { RISKS } from '../api/types';
import { href } from '../components/route';
import { useAsync } from '../components/useAsync';
import { AsyncView, ErrorBox, Pager, RiskBadge, Spinner, StatusBadge, Empty, formatTime, num } from '../components/ui';
import { SchemaTable } from '../components/SchemaTable';

const PAGE_SIZE = 25;

export function Catalog({ toolId }: { toolId?: string }) {
  return toolId ? <ToolDetail id={toolId} /> : <CatalogSearch />;
}

function CatalogSearch() {
  const [text, setText] = useState('');
  const [risk, setRisk] = useState<'' | Risk>('');
  const [status, setStatus] = useState('active');
  const [namespace, setNamespace] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [searched, setSearched] = useState('');
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [page, setPage] = useState(0);
  const [showWeak, setShowWeak] = useState(false);
  const browse = useAsync(() => catalog.list({ status: status === 'any' ? undefined : status, namespace: namespace || undefined }, page, PAGE_SIZE), [status, namespace, page]);

  const run = async (q: string) => {
    if (!q) { setHits(null); setError(null); return; }
    if (q.length > 4096) { setError(new Error('The search text is limited to 4096 characters.')); return; }
    setSearching(true);
    setError(null);
    try {
      const found = await catalog.search({
        queryText: q, limit: 20,
        filters: { ...(risk ? { risk: [risk] } : {}), ...(namespace ? { namespace } : {}), status },
      });
      setSearched(q);
      setShowWeak(false);
      setHits(found);
    } catch (err) {
      setError(err as Error);
    } finally {
      setSearching(false);
    }
  };
  const search = (e: FormEvent) => { e.preventDefault(); void run(text.trim()); };

  return (
    <section>
      <h1>Catalog</h1>
      <form className="filters" role="search" onSubmit={search}>
        <input className="search-box" value={text} onChange={(e) => setText(e.target.value)} aria-label="search the catalog"
          placeholder="What should the tool do? e.g. convert an amount between currencies" />
        <label>Risk<select value={risk} onChange={(e) => setRisk(e.target.value as '' | Risk)} aria-label="risk filter">
          <option value="">any</option>{RISKS.map((r) => <option key={r} value={r}>{r.toLowerCase().replace('_', ' ')}</option>)}
        </select></label>
        <label>Status<select value={status} onChange={(e) => { setStatus(e.target.value); setPage(0); }} aria-label="status filter">
          <option value="active">active</option><option value="disabled">disabled</option><option value="any">any</option>
        </select></label>
        <label>Namespace<input value={namespace} onChange={(e) => { setNamespace(e.target.value); setPage(0); }} aria-label="namespace filter" /></label>
        <button className="btn btn-primary" type="submit" disabled={searching}>Search</button>
        {hits && <button className="btn" type="button" onClick={() => { setHits(null); setText(''); }}>Clear</button>}
      </form>
      {error && <ErrorBox error={error} onRetry={() => void run(text.trim())} />}
      {searching && <Spinner label="Searching…" />}
      {hits && !searching && hits.length > 0 && !hits.some((h) => h.confidence >= CONFIDENT) && (
        <Empty>
          No confident match for “{searched}”: the best hit is {(Math.max(...hits.map((h) => h.confidence)) * 100).toFixed(0)}% likely to be what you asked for.{' '}
          {!showWeak && <button type="button" className="btn-link" onClick={() => setShowWeak(true)}>Show the {hits.length} weak matches</button>}
        </Empty>
      )}
      {hits && !searching && (
        hits.length === 0 ? <Empty>No tool matches “{searched}”. Admins can look for candidates in the review queue's gap filter.</Empty> : (!hits.some((h) => h.confidence >= CONFIDENT) && !showWeak) ? null : (
          <table className="table" data-testid="search-results">
            <thead><tr><th>#</th><th>Verb</th><th>Name</th><th>Risk</th><th className="num">Score</th><th className="num">Confidence</th><th>Matched on</th></tr></thead>
            <tbody>
              {hits.map((h, i) => (
                <tr key={h.toolId}>
                  <td>{i + 1}</td>
                  <td><a className="mono" href={href(`catalog/${encodeURIComponent(h.toolId)}`)}>{h.verb}</a><div className="small muted">{h.description}</div></td>
                  <td>{h.name ?? '—'}</td>
                  <td><RiskBadge risk={h.risk} /></td>
                  <td className="num">{num(h.score, 3)}</td>
                  <td className="num"><span className="confidence" style={{ ['--c' as string]: String(h.confidence) }}>{(h.confidence * 100).toFixed(0)}%</span></td>
                  <td className="small">{(h.matchedOn ?? []).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {!hits && (
        <AsyncView state={browse} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="The catalog has no tools with these filters yet.">
          {(p) => (
            <>
              <table className="table">
                <thead><tr><th>Verb</th><th>Name</th><th>Namespace</th><th>Risk</th><th>Status</th><th className="num">Version</th></tr></thead>
                <tbody>
                  {p.items.map((t) => {
                    const m = (t as { manifest?: ToolManifest }).manifest ?? t;
                    const id = t.id ?? m.id ?? '';
                    return (
                      <tr key={id}>
                        <td><a className="mono" href={href(`catalog/${encodeURIComponent(id)}`)}>{m.verb}</a></td>
                        <td>{m.name ?? '—'}</td><td>{m.namespace ?? '—'}</td><td><RiskBadge risk={m.risk} /></td>
                        <td><StatusBadge status={t.status} /></td><td className="num">{m.version ?? t.version ?? '—'}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={setPage} />
            </>
          )}
        </AsyncView>
      )}
    </section>
  );
}

/**
 * Below this calibrated confidence a hit is more likely wrong than right: when no hit reaches it the search
 * says "no confident match" instead of presenting the best guess as an answer.
 */
const CONFIDENT = 0.5;

function ToolDetail({ id }: { id: string }) {
  const state = useAsync(() => catalog.get(id), [id]);
  return (
    <section>
      <p><a href={href('catalog')}>‹ Catalog</a></p>
      <AsyncView state={state}>
        {(raw) => {
          const m = ((raw.manifest as ToolManifest | undefined) ?? (raw as unknown as ToolManifest));
          return (
            <>
              <h1 className="mono">{m.verb}</h1>
              <div className="facts">
                <div><span className="label">Status</span><StatusBadge status={raw.status as string} /></div>
                <div><span className="label">Risk</span><RiskBadge risk={m.risk} /></div>
                <div><span className="label">Version</span>{String(m.version ?? raw.version ?? '—')}</div>
                <div><span className="label">Namespace</span>{m.namespace ?? '—'}</div>
                <div><span className="label">Source</span><SourceOf toolId={id} type={m.source} /></div>
                <div><span className="label">Allowed callers</span>{Array.isArray(raw.allowedCallers) && raw.allowedCallers.length ? (raw.allowedCallers as string[]).join(', ') : 'every planner'}</div>
              </div>
              <p className="related small">
                <a href={href(`history/${encodeURIComponent(id)}`)}>history</a> · <a href={href(`health/${encodeURIComponent(id)}`)}>health and usage</a> · <a href={href(`builds?toolId=${encodeURIComponent(id)}`)}>builds</a>
              </p>
              <p className="description">{m.description}</p>
              {m.binding?.method && <p className="mono">{m.binding.method} {m.binding.serverUrl}{m.binding.pathTemplate}</p>}
              <h2>Parameters</h2>
              <SchemaTable schema={m.inputSchema} bindings={m.binding?.parameters} emptyText="No parameters." />
              <h2>Output</h2>
              <SchemaTable schema={m.outputSchema} emptyText="No output schema." />
              {Array.isArray(raw.versions) && raw.versions.length > 0 && (
                <>
                  <h2>Versions</h2>
                  <table className="table">
                    <thead><tr><th>Version</th><th>Content hash</th><th>Catalogued</th></tr></thead>
                    <tbody>{(raw.versions as Array<{ version: number; contentHash?: string; createdAt?: string }>).map((v) => (
                      <tr key={v.version}><td>{v.version}</td><td className="mono small">{v.contentHash}</td><td>{formatTime(v.createdAt)}</td></tr>))}</tbody>
                  </table>
                </>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

/** Where the tool in service came from: the source of its approved revision (a link), and that review. */
function SourceOf({ toolId, type }: { toolId: string; type?: string }) {
  const state = useAsync(() => pending.list({ q: toolId, status: 'APPROVED,ACTIVE' }, 0, 50, '-updated')
    .then((p) => p.items.find((c) => c.toolId === toolId) ?? null), [toolId]);
  const c = state.data;
  if (!c) return <>{type ?? '—'}</>;
  return (
    <>
      {c.sourceId ? <a href={href(`sources?q=${encodeURIComponent(c.sourceName ?? '')}`)}>{c.sourceName}</a> : c.sourceName}
      {type ? <span className="small muted"> ({type})</span> : null}
      <div className="small"><a href={href(`review/${encodeURIComponent(c.id)}`)}>its review (revision {c.revision})</a></div>
    </>
  );
}
