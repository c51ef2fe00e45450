import { whoOf } from '../components/who';
import { FormEvent, useEffect, useState } from 'react';
import { HealthThresholds, plugins, usage } from '../api/services';
import type { Plugin } from '../api/types';
import { AdminOnly } from '../components/session';
import { href } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, Dialog, ErrorBox, Field, Pager, StatusBadge, formatTime, num } from '../components/ui';
import { BudgetBar, HealthStrip, LineChart, Point } from '../components/Charts';

const PAGE_SIZE = 25;
type Rec = Record<string, unknown>;

const numberAt = (o: Rec | undefined, ...keys: string[]): number | undefined => {
  for (const k of keys) { const v = o?.[k]; if (typeof v === 'number') return v; }
  return undefined;
};
const timeOf = (o: Rec): number => Date.parse(String(o.at ?? o.time ?? o.probedAt ?? o.timestamp ?? o.period ?? o.from ?? ''));

export function Health({ pluginId }: { pluginId?: string }) {
  return pluginId ? <PluginDetail id={pluginId} /> : <PluginList />;
}

function PluginList() {
  const [page, setPage] = useState(0);
  const state = useAsync(() => plugins.list(page, PAGE_SIZE), [page]);
  const overall = useAsync(() => usage.overall('day'), []);
  usePolling(state.refresh, 10000);
  usePolling(overall.refresh, 30000);
  // Today's usage is optional context: the plugin list must show even when usage cannot be read.
  const o = overall.data as Rec | undefined;
  return (
    <section>
      <h1>Health and usage</h1>
      {o && (
        <div className="facts">
          <div><span className="label">Calls today</span>{num(numberAt(o, 'calls', 'totalCalls'))}</div>
          <div><span className="label">Errors</span>{num(numberAt(o, 'errors', 'failedCalls'))}</div>
          <div><span className="label">Latency p50 / p95</span>{num(numberAt(o, 'latencyP50Ms', 'p50Ms'))} / {num(numberAt(o, 'latencyP95Ms', 'p95Ms'))} ms</div>
        </div>
      )}
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="No plugins registered yet. Approved tools appear here once the engineer has built them.">
        {(p) => (
          <>
            <table className="table">
              <thead><tr><th>Verb</th><th>Type</th><th>Status</th><th>Last probe</th><th className="num">Error rate</th><th className="num">p50 ms</th></tr></thead>
              <tbody>
                {p.items.map((pl: Plugin) => {
                  const id = pl.toolId ?? pl.id ?? '';
                  return (
                    <tr key={id} data-testid={`plugin-${pl.verb}`}>
                      <td><a className="mono" href={href(`health/${encodeURIComponent(id)}`)}>{pl.verb ?? id}</a><div className="small muted">{pl.name}</div></td>
                      <td>{pl.type?.toLowerCase() ?? '—'}</td>
                      <td><StatusBadge status={pl.status} />{pl.statusReason && <div className="small muted">{pl.statusReason}</div>}</td>
                      <td>{formatTime(pl.lastProbeAt)}{pl.lastProbeOk === false && <span className="error-text small"> failed</span>}</td>
                      <td className="num">{pl.errorRate != null ? `${(pl.errorRate * 100).toFixed(1)}%` : '—'}</td>
                      <td className="num">{num(pl.latencyP50Ms)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

function PluginDetail({ id }: { id: string }) {
  const state = useAsync(() => plugins.get(id), [id]);
  const use = useAsync(() => plugins.usage(id), [id]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  // Status and probes follow the server: every 3 s for a minute after an action, every 15 s otherwise.
  const [fastUntil, setFastUntil] = useState(0);
  const fast = Date.now() < fastUntil;
  usePolling(state.refresh, fast ? 3000 : 15000);
  usePolling(use.refresh, 30000);
  useEffect(() => {
    if (!fast) return undefined;
    const t = window.setTimeout(() => setFastUntil(0), fastUntil - Date.now());
    return () => window.clearTimeout(t);
  }, [fast, fastUntil]);

  const act = async (what: 'enable' | 'disable' | 'probe', reason?: string) => {
    setBusy(what);
    setError(null);
    setNotice(null);
    try {
      if (what === 'enable') await plugins.enable(id);
      else if (what === 'disable') await plugins.disable(id, reason);
      else await plugins.probe(id);
      setNotice(what === 'probe' ? 'Probe started: its result shows here within seconds.'
        : what === 'disable' ? 'Disabled: the tool is out of service until an admin enables it.' : 'Enabled: the tool is back in service.');
      setFastUntil(Date.now() + 60_000);
      state.reload();
      use.reload();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section>
      <p><a href={href('health')}>‹ Health and usage</a></p>
      {error && <ErrorBox error={error} />}
      {notice && <p className="state state-success" role="status">{notice}</p>}
      {disabling && <DisableDialog verb={String(state.data?.verb ?? id)} onClose={() => setDisabling(false)}
        onConfirm={(reason) => { setDisabling(false); void act('disable', reason); }} />}
      <AsyncView state={state}>
        {(pl) => {
          const history = ((pl.healthHistory ?? pl.history ?? pl.probes ?? []) as Rec[]).filter((h) => !Number.isNaN(timeOf(h))).sort((a, b) => timeOf(a) - timeOf(b));
          const latency: Point[] = history.flatMap((h) => { const v = numberAt(h, 'latencyMs', 'durationMs'); return v === undefined ? [] : [{ t: timeOf(h), v }]; });
          const u = use.data as Rec | undefined;
          const series = ((u?.series ?? u?.periods ?? u?.buckets ?? []) as Rec[]).filter((s) => !Number.isNaN(timeOf(s))).sort((a, b) => timeOf(a) - timeOf(b));
          const errorRate: Point[] = series.flatMap((s) => {
            const calls = numberAt(s, 'calls'); const errs = numberAt(s, 'errors');
            const rate = numberAt(s, 'errorRate') ?? (calls ? (errs ?? 0) / calls : undefined);
            return rate === undefined ? [] : [{ t: timeOf(s), v: rate * 100 }];
          });
          const p95: Point[] = series.flatMap((s) => { const v = numberAt(s, 'latencyP95Ms', 'p95Ms'); return v === undefined ? [] : [{ t: timeOf(s), v }]; });
          const policy = (pl.policy ?? {}) as Rec;
          const budget = (policy.budget ?? u?.budget ?? null) as Rec | null;
          // Budgets count per calendar month; the usage answer says what this month has spent.
          const spent = numberAt(u?.budget as Rec | undefined, 'spentThisMonth') ?? numberAt(u, 'spend', 'spent', 'cost');
          const statusHistory = (pl.statusHistory ?? []) as Rec[];
          const health = (pl.health ?? {}) as Rec;
          const status = String(pl.status ?? '');
          return (
            <>
              <div className="screen-head">
                <div><h1 className="mono">{String(pl.verb ?? id)}</h1><p className="muted">{String(pl.name ?? '')}</p></div>
                <AdminOnly>
                  <div className="bulk">
                    <button className="btn" disabled={busy !== null} onClick={() => act('probe')}>{busy === 'probe' ? 'Probing…' : 'Probe now'}</button>
                    {/disabled/i.test(status)
                      ? <button className="btn btn-primary" disabled={busy !== null} onClick={() => act('enable')}>Enable</button>
                      : <button className="btn btn-danger" disabled={busy !== null} onClick={() => setDisabling(true)}>Disable…</button>}
                  </div>
                </AdminOnly>
              </div>
              <div className="facts">
                <div><span className="label">Status</span><StatusBadge status={status} /></div>
                <div><span className="label">Reason</span>{String(pl.statusReason ?? pl.reason ?? '—')}</div>
                <div><span className="label">Last probe</span>{formatTime(health.lastProbeAt as string | undefined)}{health.lastProbeReason ? ` (${String(health.lastProbeReason)})` : ''}</div>
                <div><span className="label">Calls</span>{num(numberAt(u, 'calls'))}</div>
                <div><span className="label">Errors</span>{num(numberAt(u, 'errors'))}</div>
                <div><span className="label">Denied</span>{num(numberAt(u, 'denied'))}</div>
                <div><span className="label">Latency p50 / p95</span>{num(numberAt(u, 'latencyP50Ms', 'p50Ms'))} / {num(numberAt(u, 'latencyP95Ms', 'p95Ms'))} ms</div>
              </div>
              <h2>Health history</h2>
              <HealthStrip samples={history.map((h) => ({ t: timeOf(h), ok: Boolean(h.ok ?? h.success ?? h.healthy), detail: h.error as string | undefined }))} />
              <LineChart points={latency} label="Probe latency" unit=" ms" />
              <AdminOnly>{pl.thresholds ? <ThresholdsForm id={id} current={pl.thresholds as HealthThresholds} onSaved={() => { setNotice('Health thresholds saved: the next probes are judged by them.'); state.reload(); }} /> : null}</AdminOnly>
              {statusHistory.length > 0 && (
                <table className="table">
                  <thead><tr><th>When</th><th>Status</th><th>Why</th><th>By</th></tr></thead>
                  <tbody>{statusHistory.map((h, i) => <tr key={i}><td>{formatTime(h.at as string)}</td><td><StatusBadge status={h.status as string} /></td><td>{String(h.reason ?? '')}</td><td>{whoOf(h.by)}</td></tr>)}</tbody>
                </table>
              )}
              <h2>Usage this month</h2>
              {use.status === 'error' && <ErrorBox error={use.error!} onRetry={use.reload} />}
              <LineChart points={errorRate} label="Error rate" unit="%" max={100} />
              <LineChart points={p95} label="Latency p95" unit=" ms" />
              <h2>Spend against budget</h2>
              {budget ? <BudgetBar spent={spent ?? 0} soft={numberAt(budget, 'softLimit')} hard={numberAt(budget, 'hardLimit')} currency={String(budget.currency ?? '')} />
                : <p className="muted">No budget in this plugin's policy.</p>}
              {Array.isArray(u?.perCaller) && (u!.perCaller as Rec[]).length > 0 && (
                <table className="table">
                  <thead><tr><th>Caller</th><th className="num">Calls</th><th className="num">Errors</th><th className="num">Spend</th></tr></thead>
                  <tbody>{(u!.perCaller as Rec[]).map((c) => <tr key={String(c.caller)}><td>{String(c.caller)}</td><td className="num">{num(numberAt(c, 'calls'))}</td><td className="num">{num(numberAt(c, 'errors'))}</td><td className="num">{num(numberAt(c, 'spend'), 2)}</td></tr>)}</tbody>
                </table>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

/** Disabling takes a tool out of service at once: it is confirmed, with a reason that goes to the audit log. */
export function DisableDialog({ verb, onClose, onConfirm }: { verb: string; onClose: () => void; onConfirm: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = reason.trim();
    if (r.length < 3) { setError('Say why the tool is disabled (at least 3 characters): the reason goes to the audit log.'); return; }
    if (r.length > 500) { setError('At most 500 characters.'); return; }
    onConfirm(r);
  };
  return (
    <Dialog title={`Disable ${verb}`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        <p>Planners stop getting <strong className="mono">{verb}</strong> at once, and calls to it are refused until an admin enables it again.</p>
        <Field label="Reason (required)" htmlFor="disable-reason" error={error ?? undefined} hint="3 to 500 characters">
          <textarea id="disable-reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={Boolean(error)} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-danger">Disable</button>
        </div>
      </form>
    </Dialog>
  );
}

const THRESHOLD_FIELDS: Array<[keyof HealthThresholds, string, string]> = [
  ['failuresToDisable', 'Failed probes before disabling', 'a whole number from 1'],
  ['successesToEnable', 'Good probes before enabling again', 'a whole number from 1'],
  ['errorRateThreshold', 'Error rate that disables (0–1)', 'a fraction above 0 and at most 1, e.g. 0.5'],
  ['errorRateWindow', 'Calls the error rate is judged over', 'a whole number from 1'],
  ['intervalSeconds', 'Seconds between probes', 'a whole number from 1'],
];

/** An admin sets this plugin's own health thresholds (the capabilities manager keeps them per plugin). */
export function ThresholdsForm({ id, current, onSaved }: { id: string; current: HealthThresholds; onSaved: () => void }) {
  const [form, setForm] = useState<Record<string, string>>(() => Object.fromEntries(THRESHOLD_FIELDS.map(([k]) => [k, String(current[k] ?? '')])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    const value: Partial<HealthThresholds> = {};
    for (const [k, label, rule] of THRESHOLD_FIELDS) {
      const n = Number(form[k]);
      const ok = k === 'errorRateThreshold' ? form[k].trim() !== '' && n > 0 && n <= 1 : /^\d+$/.test(form[k].trim()) && n >= 1;
      if (!ok) next[k] = `${label}: ${rule}`; else value[k] = n;
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    setServerError(null);
    try { await plugins.setThresholds(id, value); onSaved(); } catch (err) { setServerError((err as Error).message); }
  };
  return (
    <form className="form thresholds" onSubmit={submit} noValidate aria-labelledby="thresholds-title">
      <h2 id="thresholds-title">Health thresholds</h2>
      <div className="row">
        {THRESHOLD_FIELDS.map(([k, label, rule]) => (
          <Field key={k} label={label} htmlFor={`th-${k}`} error={errors[k]} hint={rule}>
            <input id={`th-${k}`} inputMode="decimal" value={form[k]} aria-invalid={Boolean(errors[k])} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))} />
          </Field>
        ))}
      </div>
      {serverError && <p className="field-error" role="alert">{serverError}</p>}
      <button type="submit" className="btn">Save thresholds</button>
    </form>
  );
}
