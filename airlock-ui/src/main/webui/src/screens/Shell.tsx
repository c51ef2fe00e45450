import { useEffect, useState } from 'react';
import { notifications, session as sessionApi } from '../api/services';
import { useSession } from '../components/session';
import { href, useHashRoute } from '../components/route';
import { Sources } from './Sources';
import { ReviewQueue } from './ReviewQueue';
import { ToolReview } from './ToolReview';
import { Catalog } from './Catalog';
import { Health } from './Health';
import { Notifications } from './Notifications';
import { AuditLog } from './AuditLog';
import { Gaps } from './Gaps';
import { Builds } from './Builds';
import { NotFound } from './NotFound';
import { History } from './History';

const NAV: Array<[string, string]> = [
  ['review', 'Review queue'],
  ['sources', 'Sources'],
  ['gaps', 'Gaps'],
  ['builds', 'Builds'],
  ['catalog', 'Catalog'],
  ['health', 'Health & usage'],
  ['audit', 'Audit log'],
];

/** Unread notifications, refreshed every 20 s and whenever the inbox changes. */
function useUnreadCount(): [number | null, () => void] {
  const [count, setCount] = useState<number | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const load = () => notifications.list(0, 1, true).then(
      (p) => { if (live) setCount(p.unread ?? p.total); },
      () => { if (live) setCount(null); },
    );
    load();
    const timer = window.setInterval(load, 20_000);
    return () => { live = false; window.clearInterval(timer); };
  }, [tick]);
  return [count, () => setTick((t) => t + 1)];
}

export function Shell({ onSignedOut }: { onSignedOut: () => void }) {
  const me = useSession();
  const route = useHashRoute();
  const [unread, refreshUnread] = useUnreadCount();
  const [screen, id] = route;

  const signOut = async () => {
    try { await sessionApi.logout(); } finally { onSignedOut(); }
  };

  let body;
  switch (screen) {
    case 'sources': body = <Sources />; break;
    case 'review': body = id ? <ToolReview id={id} /> : <ReviewQueue />; break;
    case 'catalog': body = <Catalog toolId={id} />; break;
    case 'health': body = <Health pluginId={id} />; break;
    case 'notifications': body = <Notifications onChange={refreshUnread} />; break;
    case 'audit': body = <AuditLog />; break;
    case 'gaps': body = <Gaps />; break;
    case 'builds': body = <Builds />; break;
    case 'history': body = id ? <History toolId={id} /> : <NotFound path={route.join('/')} />; break;
    default: body = <NotFound path={route.join('/')} />;
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
      <header className="topbar">
        <a className="brand" href={href('review')}><span className="logo" aria-hidden>⚒</span> Toolsmith Airlock</a>
        <nav className="nav" aria-label="screens">
          {NAV.map(([path, label]) => (
            <a key={path} href={href(path)} className={screen === path ? 'active' : ''}>{label}</a>
          ))}
        </nav>
        <div className="topbar-right">
          <a href={href('notifications')} className={`bell${screen === 'notifications' ? ' active' : ''}`}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" /></svg><span className="sr-only">Notifications</span>{unread ? <>{' '}<span className="count" data-testid="unread-count">{unread > 99 ? '99+' : unread}</span><span className="sr-only"> unread</span></> : null}
          </a>
          <span className="who" data-testid="who">{me.user}{me.role !== me.user && <> <span className="badge role">{me.role}</span></>}</span>
          <button className="btn btn-small" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main className="content" id="main" tabIndex={-1}>{body}</main>
    </div>
  );
}
