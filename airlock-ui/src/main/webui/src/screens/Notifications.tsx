import { useState } from 'react';
import { notifications } from '../api/services';
import { useAsync } from '../components/useAsync';
import { AsyncView, ErrorBox, Pager, formatTime } from '../components/ui';
import { href } from '../components/route';
import type { Notification } from '../api/types';

const PAGE_SIZE = 25;

function linkOf(n: Notification): string | null {
  if (!n.subjectId) return null;
  // BUILD_FAILED names the candidate; NEW_PENDING_TOOLS names the scanned source (or, for an LLM draft, the
  // candidate), so it opens the queue, where those tools wait.
  if (n.kind === 'BUILD_FAILED') return href(`review/${encodeURIComponent(n.subjectId)}`);
  if (n.kind === 'NEW_PENDING_TOOLS') return href('review');
  if (n.kind === 'PLUGIN_DISABLED' || n.kind === 'PLUGIN_ENABLED' || n.kind === 'BUDGET_SOFT_LIMIT') return href(`health/${encodeURIComponent(n.subjectId)}`);
  if (n.kind === 'CAPABILITY_GAP') return href('review');
  if (n.kind === 'SOURCE_SCAN_FAILED') return href('sources');
  return null;
}

export function Notifications({ onChange }: { onChange: () => void }) {
  const [page, setPage] = useState(0);
  const state = useAsync(() => notifications.list(page, PAGE_SIZE), [page]);
  const [error, setError] = useState<Error | null>(null);

  const markRead = async (n: Notification) => {
    setError(null);
    try {
      await notifications.markRead(n.id);
      state.reload();
      onChange();
    } catch (e) {
      setError(e as Error);
    }
  };

  const markAll = async () => {
    setError(null);
    try {
      await notifications.markAllRead();
      state.reload();
      onChange();
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <section>
      <div className="screen-head">
        <h1>Notifications</h1>
        {state.data?.unread ? <button className="btn" onClick={markAll}>Mark all {state.data.unread} read</button> : null}
      </div>
      {error && <ErrorBox error={error} />}
      <AsyncView state={state} isEmpty={(p) => p.items.length === 0 && p.page === 0} empty="No notifications. New pending tools, capability gaps, failed builds and disabled plugins appear here.">
        {(p) => (
          <>
            <ul className="notifications">
              {p.items.map((n) => {
                const unread = !n.read && !n.readAt;
                const link = linkOf(n);
                return (
                  <li key={n.id} className={`notification sev-${n.severity.toLowerCase()}${unread ? ' unread' : ''}`}>
                    <div>
                      <span className={`badge sev sev-${n.severity.toLowerCase()}`}>{n.severity.toLowerCase()}</span>{' '}
                      {link ? <a href={link}><strong>{n.title}</strong></a> : <strong>{n.title}</strong>}
                      <div className="small muted">{n.kind.toLowerCase().replace(/_/g, ' ')} · {formatTime(n.createdAt)}</div>
                      {n.message && <div>{n.message}</div>}
                    </div>
                    {unread && <button className="btn btn-small" onClick={() => markRead(n)}>Mark read</button>}
                  </li>
                );
              })}
            </ul>
            <Pager page={page} size={PAGE_SIZE} total={p.total} count={p.items.length} onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
