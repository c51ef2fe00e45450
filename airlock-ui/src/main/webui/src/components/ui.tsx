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

export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="overlay" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className={`dialog${wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-label={title} ref={ref}>
        <header className="dialog-head"><h2>{title}</h2><button className="btn-icon" aria-label="Close" onClick={onClose}>×</button></header>
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
