import { createContext, ReactNode, useContext } from 'react';
import type { SessionInfo } from '../api/services';

const SessionContext = createContext<SessionInfo | null>(null);

export function SessionProvider({ value, children }: { value: SessionInfo; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionInfo {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in session');
  return s;
}

export function useIsAdmin(): boolean {
  return useSession().role === 'admin';
}

/** Renders its children only for admins: viewers never see buttons that change things. */
export function AdminOnly({ children }: { children: ReactNode }) {
  return useIsAdmin() ? <>{children}</> : null;
}
