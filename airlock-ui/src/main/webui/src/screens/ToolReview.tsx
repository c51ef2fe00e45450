import { useState } from 'react';
import { builds, pending } from '../api/services';
import type { Build, PendingTool } from '../api/types';
import { AdminOnly } from '../components/session';
import { flash, go, href } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, RiskBadge, StatusBadge, formatTime } from '../components/ui';
import { SchemaTable } from '../components/SchemaTable';
import { Diff } from '../components/Diff';
import { Report } from '../components/Report';
import { ApproveDialog, RejectDialog } from './ApproveDialog';
import { PolicyDialog } from './PolicyDialog';
import { changeOf, gapsOf, refusalOf, replacementOf, verbOf } from '../api/candidates';
import { Replacement } from '../components/Replacement';
import { PolicySummary } from '../components/PolicySummary';

/** Every server the tool may call and the distinct hosts among them: what an approval lets it reach. */
export function reachOf(t: PendingTool): { servers: string[]; hosts: string[] } {
  const servers = new Set<string>();
  const bound = t.manifest?.binding?.serverUrl;
  if (bound) servers.add(bound);
  const probe = t.manifest?.healthProbe?.binding?.serverUrl;
  if (probe) servers.add(probe);
  const hosts = new Set<string>();
  servers.forEach((s) => { try { hosts.add(new URL(s).host); } catch { /* relative server URL: no host of its own */ } });
  return { servers: [...servers], hosts: [...hosts] };
}

const SCHEME_TEXT: Record<string, string> = {
  API_KEY_HEADER: 'API key in a header', API_KEY_QUERY: 'API key in a query parameter', API_KEY_COOKIE: 'API key in a cookie',
  BEARER: 'bearer token (Authorization header)', BASIC: 'HTTP basic authentication',
};

function securityOf(t: PendingTool): string | null {
  const auth = t.manifest?.binding?.auth;
  if (!auth || !auth.scheme || auth.scheme === 'NONE') return null;
  return [SCHEME_TEXT[auth.scheme] ?? auth.scheme, auth.parameterName && `named ${auth.parameterName}`,
    auth.secretName && `filled from the secret "${auth.secretName}"`].filter(Boolean).join(', ');
}

const METHOD_RISK: Record<string, string> = {
  GET: 'GET only reads', HEAD: 'HEAD only reads', POST: 'POST changes data on the remote service', PUT: 'PUT changes data on the remote service',
  PATCH: 'PATCH changes data on the remote service', DELETE: 'DELETE removes data on the remote service',
};

/** Why the tool has its risk: the reviewer's decision, or what the HTTP method implies. */
export function riskReasonOf(t: PendingTool): string {
  if (t.riskOverride) return `set by the reviewer${t.derivedRisk ? ` (detected: ${t.derivedRisk.toLowerCase().replace('_', ' ')})` : ''}`;
  const method = t.manifest?.binding?.method?.toUpperCase();
  return method ? `detected from the HTTP method: ${METHOD_RISK[method] ?? method}` : 'detected from the definition';
}

export function ToolReview({ id }: { id: string }) {
  const state = useAsync(() => pending.get(id), [id]);
  const [dialog, setDialog] = useState<'approve' | 'reject' | 'policy' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // While the engineer builds (APPROVED), the page follows the candidate every 2 s until its report lands.
  usePolling(state.refresh, 2000, state.data?.status === 'APPROVED');

  return (
    <section>
      <p><a href={href('review')}>‹ Review queue</a></p>
      {notice && <p className="state state-success" role="status">{notice}</p>}
      <AsyncView state={state}>
        {(t) => {
          const m = t.manifest;
          const reach = reachOf(t);
          const security = securityOf(t);
          const report = t.buildReport ?? null;
          const failure = t.buildFailure ?? null;
          const open = !t.status || /^(pending|build_failed)$/i.test(t.status);
          // an approved or active tool's policy can change: a new sealed approval version, audited
          const changeable = /^(approved|active)$/i.test(t.status ?? '');
          const verb = verbOf(t);
          const refusal = refusalOf(t);
          const replacing = replacementOf(t);
          // server warnings stand apart, in red; their messages are among the warnings too, so not twice
          const serverWarnings = t.serverWarnings ?? [];
          const notes = (t.warnings ?? []).filter((w) => !serverWarnings.some((s) => s.message === w));
          return (
            <>
              <div className="screen-head">
                <div>
                  <h1 className="mono">{verb}</h1>
                  <p className="muted">{m?.name ?? t.name} · from {t.sourceName ?? t.sourceId ?? 'unknown source'}{t.operationKey ? ` · ${t.operationKey}` : ''}{t.revision ? ` · revision ${t.revision}` : ''} · found {formatTime(t.discoveredAt)}</p>
                </div>
                {open && (
                  <AdminOnly>
                    <div className="bulk">
                      {!refusal && <button className="btn btn-primary" onClick={() => setDialog('approve')}>Approve…</button>}
                      <button className="btn btn-danger" onClick={() => setDialog('reject')}>Reject…</button>
                    </div>
                  </AdminOnly>
                )}
              </div>
              <div className="facts">
                <div><span className="label">Risk</span><RiskBadge risk={t.risk ?? m?.risk} /><span className="small"> {riskReasonOf(t)}</span></div>
                <div><span className="label">Status</span><StatusBadge status={t.status} /></div>
                <div><span className="label">Change</span><span className={`badge change-${changeOf(t)}`}>{changeOf(t)}</span></div>
                <div><span className="label">Fills gap</span>{gapsOf(t).length ? gapsOf(t).map((g) => <a key={g} href={href('gaps')} className="badge gap mono">{g}</a>) : <span className="muted">none</span>}</div>
                <div><span className="label">Source</span>{t.sourceId ? <a href={href(`sources?q=${encodeURIComponent(t.sourceName ?? '')}`)}>{t.sourceName ?? t.sourceId}</a> : (t.sourceName ?? '—')}</div>
              </div>
              {t.toolId && (
                <p className="related small" data-testid="related">
                  <span className="mono">{t.toolId}</span>:
                  <a href={href(`history/${encodeURIComponent(t.toolId)}`)}>history</a> ·
                  {/^(active|approved|superseded|retired)$/i.test(t.status ?? '') && <><a href={href(`catalog/${encodeURIComponent(t.toolId)}`)}>catalog</a> ·
                  <a href={href(`health/${encodeURIComponent(t.toolId)}`)}>health</a> ·</>}
                  <a href={href(`builds?toolId=${encodeURIComponent(t.toolId)}`)}>builds</a>
                </p>
              )}
              {open && refusal && <p className="state state-error" role="alert">Cannot be approved: {refusal.message}.</p>}
              {replacing && <h2>Replaces <span className="mono">{replacing.toolId}</span> from {replacing.source}</h2>}
              {replacing && <Replacement collision={replacing} />}
              {t.rejectReason && <p className="state state-error">Rejected{t.decidedBy ? ` by ${t.decidedBy}` : ''}: {t.rejectReason}</p>}
              {t.status === 'APPROVED' && <p className="state state-info" role="status">Approved{t.decidedBy ? ` by ${t.decidedBy}` : ''}: the engineer is building and verifying the wrapper.</p>}
              {serverWarnings.length > 0 && (
                <div className="state state-error" role="alert" aria-label="Server address warning">
                  <div><strong>Check where this tool sends its calls:</strong><ul>{serverWarnings.map((w) => <li key={w.url}><span className="badge mono">{w.code}</span> {w.message}</li>)}</ul></div>
                </div>
              )}
              {(t.textWarnings ?? []).length > 0 && (
                <div className="state state-error" role="alert" aria-label="Suspicious text warning">
                  <div><strong>Check what this tool tells the language model:</strong>
                    <ul>{(t.textWarnings ?? []).map((w) => (
                      <li key={`${w.code}${w.field}`}><span className="badge mono">{w.code}</span> in <span className="mono">{w.field}</span>: {w.message}
                        <div className="mono small excerpt">{w.excerpt}</div></li>
                    ))}</ul>
                  </div>
                </div>
              )}
              {notes.length > 0 && (
                <div className="state state-info"><div><strong>Conversion notes:</strong><ul>{notes.map((w) => <li key={w}>{w}</li>)}</ul></div></div>
              )}

              <h2>What it does</h2>
              <p className="description">{m?.description ?? t.description ?? <span className="muted">No description in the source.</span>}</p>
              {m?.binding?.method && <p className="mono">{m.binding.method} {m.binding.pathTemplate}</p>}

              <h2>Parameters</h2>
              <SchemaTable schema={m?.inputSchema} bindings={m?.binding?.parameters} emptyText="No parameters." />

              <h2>Output</h2>
              <SchemaTable schema={m?.outputSchema} emptyText="The source describes no output." />

              <h2>What it can reach</h2>
              {reach.servers.length ? (
                <ul className="reach">{reach.servers.map((s) => <li key={s} className="mono">{s}</li>)}</ul>
              ) : <p className="muted">No server named in the source.</p>}
              {reach.hosts.length > 0 && <p>Hosts: {reach.hosts.map((h) => <span key={h} className="badge mono">{h}</span>)} — calls to any other host are refused.</p>}

              <h2>Security scheme</h2>
              {security ? <p>{security}</p> : <p className="muted">None: the API is called without credentials.</p>}

              {t.diff != null && (<><h2>Changes against the approved version{t.approvedRevision ? ` (revision ${t.approvedRevision})` : ''}</h2><Diff diff={t.diff} /></>)}

              {(t.policy || changeable) && (
                <>
                  <h2>Policy in force</h2>
                  {t.policy ? <PolicySummary policy={t.policy} /> : <p className="muted">No limits.</p>}
                  {changeable && (
                    <AdminOnly>
                      <button className="btn" onClick={() => setDialog('policy')}>Change policy…</button>
                    </AdminOnly>
                  )}
                </>
              )}

              <h2>Engineer's verification</h2>
              {t.toolId && (t.status === 'APPROVED' || t.status === 'BUILD_FAILED') && <BuildProgress toolId={t.toolId} />}
              <Report report={report} failureReason={failure} />

              {dialog === 'approve' && <ApproveDialog tools={[t]} onClose={() => setDialog(null)} onDone={() => { setDialog(null); setNotice(`Approved ${verbOf(t)}: the engineer is building and verifying its wrapper; this page follows the build.`); state.reload(); }} />}
              {dialog === 'policy' && <PolicyDialog tool={t} onClose={() => setDialog(null)} onDone={() => { setDialog(null); setNotice(`Changed the policy of ${verbOf(t)}: a new approval version is sealed and audited; the new limits apply from the next call.`); state.reload(); }} />}
              {dialog === 'reject' && <RejectDialog tools={[t]} onClose={() => setDialog(null)} onDone={() => { setDialog(null); flash(`Rejected ${verbOf(t)}.`); go('review'); }} />}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

const FINISHED_BUILD = /^(succeeded|failed|verified|registered|done|cancelled)$/i;

/** The engineer's build of this tool while it is being built (state), with a retry for a failed one. */
function BuildProgress({ toolId }: { toolId: string }) {
  const state = useAsync<Build | null>(() => builds.list({ toolId }, 0, 1).then((p) => p.items[0] ?? null), [toolId]);
  // followed every 2 s until the build ends (the review page itself follows the candidate's status)
  usePolling(state.refresh, 2000, !state.data || !FINISHED_BUILD.test(state.data.state ?? ''));
  const [retryError, setRetryError] = useState<string | null>(null);
  if (state.status === 'error' || !state.data) return null;
  const b = state.data;
  const retry = async () => {
    setRetryError(null);
    try { await builds.retry(b.id); state.reload(); } catch (e) { setRetryError((e as Error).message); }
  };
  return (
    <div className="state state-info" role="status">
      <span>Build <span className="mono">{b.id}</span> (version {b.version ?? '—'}): <StatusBadge status={b.state} /> {b.updatedAt ? `updated ${formatTime(b.updatedAt)}` : ''}
        {b.failureReason ? ` — ${b.failureReason}` : ''}</span>
      <button className="btn btn-small" onClick={state.reload}>Refresh</button>
      {b.state === 'FAILED' && <AdminOnly><button className="btn btn-small" onClick={retry}>Retry build</button></AdminOnly>}
      {retryError && <span className="field-error">{retryError}</span>}
    </div>
  );
}
