import { FormEvent, useEffect, useRef, useState } from 'react';
import { sources } from '../api/services';
import type { ToolSource } from '../api/types';
import { SOURCE_TYPES } from '../api/types';
import { AdminOnly } from '../components/session';
import { href, useHashQuery } from '../components/route';
import { useAsync, usePolling } from '../components/useAsync';
import { AsyncView, Dialog, ErrorBox, Field, FilterField, Pager, PageSize, SortHeader, StatusBadge, formatTime } from '../components/ui';
import { emptySourceForm, SourceErrors, SourceForm, sourceFormOf, validateSource } from '../forms/sourceForm';

const DEFAULTS = { q: '', status: '', type: '', sort: 'name', page: '0', size: '25' };
const STATUSES = ['NEW', 'SCANNING', 'OK', 'FAILED'];

export function countsOf(s: ToolSource): { found?: number; added?: number; changed?: number } {
  return { found: s.counts?.found, added: s.counts?.added, changed: s.counts?.changed };
}

const SCANNING = /^scanning$/i;
/** A source the scheduler is about to scan or is scanning: followed every 2 s, the others every 15 s. */
const BUSY = /^(new|scanning)$/i;

export function Sources() {
  const [f, setQuery] = useHashQuery(DEFAULTS);
  const page = Number(f.page) || 0;
  const size = Number(f.size) || 25;
  const state = useAsync(() => sources.list(page, size, { q: f.q, status: f.status, type: f.type, sort: f.sort }),
    [f.q, f.status, f.type, f.sort, page, size]);
  const busy = (state.data?.items ?? []).some((s) => BUSY.test(s.status ?? ''));
  usePolling(state.refresh, busy ? 2000 : 15000);
  const [editing, setEditing] = useState<ToolSource | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ToolSource | null>(null);
  const [scanning, setScanning] = useState<Record<string, string>>({});
  const [actionError, setActionError] = useState<Error | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [text, setText] = useState(f.q);
  useEffect(() => setText(f.q), [f.q]);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);
  const setF = (changes: Partial<typeof DEFAULTS>) => setQuery({ ...changes, page: '0' });
  const sortBy = (key: string) => setQuery({ sort: f.sort === key ? `-${key}` : key, page: '0' });
  const search = (e: FormEvent) => { e.preventDefault(); setF({ q: text.trim() }); };

  const scanned = (s: ToolSource) => {
    const c = countsOf(s);
    setNotice(s.status === 'FAILED'
      ? null
      : `Scanned ${s.name}: ${c.found ?? 0} found, ${c.added ?? 0} new, ${c.changed ?? 0} changed.`);
    if (s.status === 'FAILED') setActionError(new Error(`The scan of ${s.name} failed: ${s.lastError ?? 'no reason given'}`));
  };

  /** Starts a scan, then follows the source until its status leaves "scanning". */
  const scanNow = async (s: ToolSource) => {
    setActionError(null);
    setNotice(null);
    setScanning((m) => ({ ...m, [s.id]: 'starting scan…' }));
    let after: ToolSource;
    try {
      after = await sources.scan(s.id);
    } catch (e) {
      setScanning(({ [s.id]: _, ...rest }) => rest);
      setActionError(e as Error);
      return;
    }
    if (!SCANNING.test(after.status ?? '')) {
      // The librarian finished the scan before answering.
      setScanning(({ [s.id]: _, ...rest }) => rest);
      scanned(after);
      state.refresh();
      return;
    }
    const started = Date.now();
    const poll = async () => {
      try {
        const now = await sources.get(s.id);
        const c = countsOf(now);
        const done = !SCANNING.test(now.status ?? '');
        if (done || Date.now() - started > 300_000) {
          setScanning(({ [s.id]: _, ...rest }) => rest);
          scanned(now);
          state.refresh();
          return;
        }
        setScanning((m) => ({ ...m, [s.id]: `scanning… ${c.found != null ? `${c.found} found` : ''}` }));
      } catch {
        /* keep polling: a transient error should not end the progress display */
      }
      timers.current.push(window.setTimeout(poll, 1000));
    };
    timers.current.push(window.setTimeout(poll, 500));
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await sources.remove(deleting.id);
      setNotice(`Deleted ${deleting.name}.`);
      setDeleting(null);
      state.reload();
    } catch (e) {
      setActionError(e as Error);
      setDeleting(null);
    }
  };

  return (
    <section>
      <div className="screen-head">
        <h1>Sources</h1>
        <AdminOnly><button className="btn btn-primary" onClick={() => setEditing('new')}>Add source</button></AdminOnly>
      </div>
      <p className="muted">Where external tools come from. Each scan turns the source's operations into candidates in the review queue.</p>
      <form className="filters" role="search" onSubmit={search}>
        <FilterField id="s-text" label="Search">
          <input id="s-text" type="search" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} placeholder="name or URL" />
        </FilterField>
        <button type="submit" className="btn">Search</button>
        <FilterField id="s-status" label="Status">
          <select id="s-status" value={f.status} onChange={(e) => setF({ status: e.target.value })}>
            <option value="">all</option>
            {STATUSES.map((st) => <option key={st} value={st}>{st.toLowerCase()}</option>)}
          </select>
        </FilterField>
        <FilterField id="s-type" label="Type">
          <select id="s-type" value={f.type} onChange={(e) => setF({ type: e.target.value })}>
            <option value="">all</option>
            {SOURCE_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </FilterField>
        <PageSize size={size} onSize={(n) => setF({ size: String(n) })} />
      </form>
      {notice && <p className="state state-success" role="status">{notice}</p>}
      {actionError && <ErrorBox error={actionError} />}
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0}
        empty={f.q || f.status || f.type ? 'No source matches these filters.' : <>No sources yet. <AdminOnly>Add an OpenAPI document, a git repository of manifests or a marketplace index.</AdminOnly></>}>
        {(p) => (
          <>
            <div className="table-scroll">
            <table className="table sources-table">
              <thead><tr>
                <SortHeader label="Name" sortKey="name" sort={f.sort} onSort={sortBy} />
                <SortHeader label="Type" sortKey="type" sort={f.sort} onSort={sortBy} />
                <SortHeader label="Status" sortKey="status" sort={f.sort} onSort={sortBy} />
                <SortHeader label="Last scan" sortKey="lastscan" sort={f.sort} onSort={sortBy} />
                <SortHeader label="Found" sortKey="found" sort={f.sort} onSort={sortBy} />
                <SortHeader label="New" sortKey="new" sort={f.sort} onSort={sortBy} />
                <SortHeader label="Changed" sortKey="changed" sort={f.sort} onSort={sortBy} />
                <th>Last error</th><th>Actions</th>
              </tr></thead>
              <tbody>
                {p.items.map((s) => {
                  const c = countsOf(s);
                  const progress = scanning[s.id] ?? (SCANNING.test(s.status ?? '') ? 'scanning…' : undefined);
                  return (
                    <tr key={s.id} data-testid={`source-${s.name}`}>
                      <td className="name-cell"><strong>{s.name}</strong><div className="muted small mono url" title={s.url}>{s.url}</div>
                        <a className="small" href={href(`review?source=${encodeURIComponent(s.id)}&status=`)}>its tools in the review queue</a></td>
                      <td><span className="badge">{s.type}</span></td>
                      <td>{progress ? <span className="badge status status-scanning" role="status"><span className="spinner" aria-hidden /> {progress}</span> : <StatusBadge status={s.status} />}</td>
                      <td>{formatTime(s.lastScanAt)}{s.nextScanAt && <div className="small muted">next {formatTime(s.nextScanAt)}</div>}</td>
                      <td className="num">{c.found ?? '—'}</td>
                      <td className="num">{c.added ?? '—'}</td>
                      <td className="num">{c.changed ?? '—'}</td>
                      <td className="error-text">{s.lastError || ''}</td>
                      <td className="actions">
                        <AdminOnly>
                          <button className="btn btn-small" disabled={Boolean(progress)} onClick={() => scanNow(s)}>Scan now</button>
                          <button className="btn btn-small" onClick={() => setEditing(s)}>Edit</button>
                          <button className="btn btn-small btn-danger" onClick={() => setDeleting(s)}>Delete</button>
                        </AdminOnly>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            </div>
            <Pager page={page} size={size} total={p.total} count={p.items.length} onPage={(n) => setQuery({ page: String(n) })} />
          </>
        )}
      </AsyncView>
      {editing && (
        <SourceDialog source={editing === 'new' ? null : editing} onClose={() => setEditing(null)}
          onSaved={(saved) => { setNotice(editing === 'new' ? `Added ${saved.name}: it is scanned within a minute (or press Scan now).` : `Saved ${saved.name}.`); setEditing(null); state.reload(); }} />
      )}
      {deleting && (
        <Dialog title="Delete source" onClose={() => setDeleting(null)}>
          <p>Delete <strong>{deleting.name}</strong>? Its pending candidates leave the review queue; approved tools keep running.</p>
          <div className="dialog-actions">
            <button className="btn" onClick={() => setDeleting(null)}>Cancel</button>
            <button className="btn btn-danger" onClick={remove}>Delete</button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

export function SourceDialog({ source, onClose, onSaved }: { source: ToolSource | null; onClose: () => void; onSaved: (saved: ToolSource) => void }) {
  const [form, setForm] = useState<SourceForm>(source ? sourceFormOf(source) : emptySourceForm());
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof SourceForm>(k: K, v: SourceForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  // After the first attempt, messages follow every keystroke, so a corrected field clears at once.
  const errors: SourceErrors = submitted ? validateSource(form).errors : {};

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const { value } = validateSource(form);
    if (!value) return;
    setBusy(true);
    setServerError(null);
    try {
      const saved = source ? await sources.update(source.id, value) : await sources.create(value);
      onSaved(saved ?? { ...value, id: source?.id ?? '' } as ToolSource);
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const urlHint = {
    openapi: 'URL of an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML)',
    git: 'Repository of tool manifests',
    marketplace: 'URL of an index document listing manifests or OpenAPI documents',
    directory: 'An APIs.guru-style list.json (scanned on demand and for capability gaps)',
  }[form.type];

  return (
    <Dialog title={source ? `Edit ${source.name}` : 'Add source'} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        <Field label="Name" htmlFor="src-name" error={errors.name}>
          <input id="src-name" value={form.name} onChange={(e) => set('name', e.target.value)} aria-invalid={Boolean(errors.name)} />
        </Field>
        <Field label="Type" htmlFor="src-type" error={errors.type}>
          <select id="src-type" value={form.type} onChange={(e) => set('type', e.target.value as SourceForm['type'])}>
            {SOURCE_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </Field>
        <Field label="URL" htmlFor="src-url" error={errors.url} hint={urlHint}>
          <input id="src-url" value={form.url} onChange={(e) => set('url', e.target.value)} aria-invalid={Boolean(errors.url)} placeholder="https://api.example.com/openapi.json" />
        </Field>
        {form.type === 'git' && (
          <div className="row">
            <Field label="Branch" htmlFor="src-branch" error={errors.branch}>
              <input id="src-branch" value={form.branch} onChange={(e) => set('branch', e.target.value)} />
            </Field>
            <Field label="Path in repository" htmlFor="src-path" hint="Folder of manifests; empty for the root">
              <input id="src-path" value={form.path} onChange={(e) => set('path', e.target.value)} />
            </Field>
          </div>
        )}
        <Field label="Scan every (minutes)" htmlFor="src-interval" error={errors.intervalMinutes}>
          <input id="src-interval" inputMode="numeric" value={form.intervalMinutes} onChange={(e) => set('intervalMinutes', e.target.value)} aria-invalid={Boolean(errors.intervalMinutes)} />
        </Field>
        <label className="check">
          <input type="checkbox" checked={form.suspendOnChange} onChange={(e) => set('suspendOnChange', e.target.checked)} />
          Suspend an approved tool when its definition changes (otherwise it keeps running its approved version until the change is reviewed)
        </label>
        {serverError && <p className="field-error" role="alert">{serverError}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Saving…' : source ? 'Save' : 'Add source'}</button>
        </div>
      </form>
    </Dialog>
  );
}
