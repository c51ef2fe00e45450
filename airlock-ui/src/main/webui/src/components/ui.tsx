import { ReactNode, useEffect, useRef } from 'react';
import type { Risk } from '../api/types';

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return <div className="state state-loading" role="status" aria-live="polite"><span className="spinner" aria-hidden /> {label}</div>;
}

export function ErrorBox({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <strong>Something went wrong.</strong> {error.message}
      {onRetry && <button className="btn btn-small" onClick={onRetry}>Try again</button>}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

/** Loading, error and empty states around a list or a record, the same on every screen. */
export function AsyncView<T>({ state, empty, isEmpty, children }: {
  state: { status: string; data?: T; error?: Error; reload: () => void };
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'error') return <ErrorBox error={state.error!} onRetry={state.reload} />;
  if (state.data === undefined) return <Spinner />;
  if (isEmpty && isEmpty(state.data)) return <Empty>{empty ?? 'Nothing here yet.'}</Empty>;
  return <>{state.status === 'loading' && <div className="reloading" aria-hidden>Refreshing…</div>}{children(state.data)}</>;
}

const RISK_LABEL: Record<Risk, string> = {
  READ_ONLY: 'read-only', WRITE_LOCAL: 'writes locally', WRITE_REMOTE: 'writes remotely', DESTRUCTIVE: 'destructive',
};

export function RiskBadge({ risk }: { risk?: string | null }) {
  if (!risk) return <span className="badge">risk unknown</span>;
  const label = RISK_LABEL[risk as Risk] ?? risk.toLowerCase();
  return <span className={`badge risk risk-${risk.toLowerCase()}`} title={risk}>{label}</span>;
}

export function StatusBadge({ status }: { status?: string | null }) {
  if (!status) return <span className="badge">—</span>;
  return <span className={`badge status status-${status.toLowerCase()}`}>{status.toLowerCase().replace(/_/g, ' ')}</span>;
}

export function Pager({ page, size, total, count, onPage }: {
  page: number; size: number; total: number | null; count: number; onPage: (p: number) => void;
}) {
  const last = total !== null ? Math.max(0, Math.ceil(total / size) - 1) : null;
  const hasNext = last !== null ? page < last : count >= size;
  if (page === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label="pages">
      <button className="btn btn-small" disabled={page === 0} onClick={() => onPage(page - 1)}>‹ Previous</button>
      <span>Page {page + 1}{last !== null ? ` of ${last + 1}` : ''}{total !== null ? ` · ${total} in all` : ''}</span>
      <button className="btn btn-small" disabled={!hasNext} onClick={() => onPage(page + 1)}>Next ›</button>
    </nav>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves into it, Tab and Shift+Tab stay inside it, Escape or the close button close it
 * and focus returns to the control that opened it. A click outside does not close it (a half-filled form
 * would be lost); `dirty` dialogs also ask before Escape throws their input away.
 */
export function Dialog({ title, onClose, children, wide, dirty }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean; dirty?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const isDirty = useRef(dirty);
  isDirty.current = dirty;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (!isDirty.current || window.confirm('Discard what you entered in this dialog?')) close.current();
        return;
      }
      if (e.key !== 'Tab' || !ref.current) return;
      const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = ref.current.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && (document.activeElement === last || !inside)) { e.preventDefault(); first.focus(); }
    };
    window.addEventListener('keydown', onKey);
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button:not(.btn-icon)')?.focus();
    return () => {
      window.removeEventListener('keydown', onKey);
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
  return (
    <div className="overlay">
      <div className={`dialog${wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby="dialog-title" ref={ref}>
        <header className="dialog-head"><h2 id="dialog-title">{title}</h2><button type="button" className="btn-icon" aria-label="Close" onClick={onClose}>×</button></header>
        {children}
      </div>
    </div>
  );
}

export function Field({ label, error, hint, children, htmlFor }: {
  label: string; error?: string; hint?: string; children: ReactNode; htmlFor: string;
}) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint && !error && <small className="hint">{hint}</small>}
      {error && <small className="field-error" role="alert" id={`${htmlFor}-error`}>{error}</small>}
    </div>
  );
}

export function formatTime(value?: string | null): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

export function num(value: unknown, digits = 0): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** A list filter with its visible label tied to the control, so the control's accessible name is that label. */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return <span className="filter"><label htmlFor={id}>{label}</label>{children}</span>;
}

export const PAGE_SIZES = [25, 50, 100, 200];

/** How many rows a page of a long list shows (the librarian's lists allow up to 200). */
export function PageSize({ size, onSize }: { size: number; onSize: (n: number) => void }) {
  return (
    <FilterField id="page-size" label="Rows per page">
      <select id="page-size" value={size} onChange={(e) => onSize(Number(e.target.value))}>
        {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
    </FilterField>
  );
}

/**
 * A column header that sorts its list on the server: a button naming the column; `sort` is the list's
 * current key (`verb`, or `-verb` for descending). aria-sort tells a screen reader which way it runs.
 */
export function SortHeader({ label, sortKey, sort, onSort }: { label: string; sortKey: string; sort: string; onSort: (key: string) => void }) {
  const active = sort === sortKey || sort === `-${sortKey}`;
  const descending = sort === `-${sortKey}`;
  return (
    <th aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="sort-button" onClick={() => onSort(sortKey)}>
        {label}<span aria-hidden className="sort-mark">{active ? (descending ? ' ▼' : ' ▲') : ' ↕'}</span>
      </button>
    </th>
  );
}
