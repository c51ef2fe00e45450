// The backends' APIs, through the UI server's same-origin forwarding (/api/<service>/...).
import { http, query, toPage, Page } from './http';
import type {
  AuditEntry, Build, Notification, PendingTool, Plugin, SearchHit, ToolManifest, ToolSource, UsagePolicy, Risk,
} from './types';

const L = '/api/librarian';
const C = '/api/capabilities';
const E = '/api/engineer';

export interface SessionInfo { user: string; role: 'admin' | 'viewer' }

/** How to sign in, from GET /api/session's 401 answer: the password form, or a redirect to an OIDC provider. */
export type SignInMethod = { signIn: 'password' } | { signIn: 'oidc'; loginUrl: string; provider: string };

const PASSWORD_SIGN_IN: SignInMethod = { signIn: 'password' };

export const session = {
  me: () => http.get<SessionInfo>('/api/session'),
  async login(username: string, password: string): Promise<void> {
    const body = new URLSearchParams({ username, password });
    const res = await fetch('/api/session/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'toolsmith-airlock' },
      body,
    });
    if (res.status === 401) throw new Error('Wrong user name or password.');
    if (res.status === 429) {
      // Throttled or locked out: the server says how long to wait (docs/airlock-ui.md, "Sign-in throttling").
      const body = await res.json().catch(() => ({}));
      throw new Error(body.error ?? 'Too many failed sign-ins: wait and try again.');
    }
    if (!res.ok) throw new Error(`Sign-in failed (${res.status}).`);
  },
  logout: () => http.post<void>('/api/session/logout'),
  /** Asked when there is no session; anything unexpected falls back to the password form. */
  async signInMethod(): Promise<SignInMethod> {
    try {
      const res = await fetch('/api/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      const body = (await res.json()) as Record<string, unknown>;
      if (body.signIn === 'oidc' && typeof body.loginUrl === 'string' && body.loginUrl.startsWith('/')) {
        return { signIn: 'oidc', loginUrl: body.loginUrl, provider: String(body.provider ?? 'single sign-on') };
      }
    } catch { /* no JSON body: use the password form */ }
    return PASSWORD_SIGN_IN;
  },
};

export interface SourceInput {
  name: string;
  type: string;
  url: string;
  branch?: string;
  path?: string;
  intervalSeconds: number;
  suspendOnChange: boolean;
}

/** GET /tools/sources' filters and sort (see docs/api.md); empty means any. */
export interface SourceFilter { q?: string; status?: string; type?: string; sort?: string }

export const sources = {
  /** One page of sources, searched, filtered and sorted by the librarian. */
  async list(page: number, size: number, filter: SourceFilter = {}): Promise<Page<ToolSource>> {
    return toPage<ToolSource>(await http.get(`${L}/tools/sources${query({ ...filter, page, size })}`), page, size);
  },
  /** Every source, by name (for a filter's choices). */
  async all(): Promise<ToolSource[]> {
    return toPage<ToolSource>(await http.get(`${L}/tools/sources`), 0, 0).items;
  },
  get: (id: string) => http.get<ToolSource>(`${L}/tools/sources/${encodeURIComponent(id)}`),
  create: (s: SourceInput) => http.post<ToolSource>(`${L}/tools/sources`, s),
  update: (id: string, s: SourceInput) => http.put<ToolSource>(`${L}/tools/sources/${encodeURIComponent(id)}`, s),
  remove: (id: string) => http.del<void>(`${L}/tools/sources/${encodeURIComponent(id)}`),
  scan: (id: string) => http.post<ToolSource>(`${L}/tools/sources/${encodeURIComponent(id)}/scan`),
};

/** GET /tools/pending's filters (see docs/api.md); empty means any. */
export interface PendingFilter { source?: string; risk?: string; status?: string; gap?: string; q?: string }

/**
 * The librarian's approval body: the policy with `secrets` as plain values (sent once over the session; the
 * librarian encrypts them before storing or publishing and only ever shows their names), and an optional
 * risk decided by the reviewer.
 */
export interface ApprovalRequest {
  policy: UsagePolicy & { secrets?: Record<string, string> };
  riskOverride?: Risk | null;
  /** The id of the tool in service this approval replaces, confirmed by the admin (else the librarian answers 409). */
  confirmReplace?: string;
  /** The admin confirms that a tool which changes data may run without any limit (else the librarian answers 400). */
  acceptUnlimited?: boolean;
}

/** A changed policy for a tool in service; without `policy.secrets` the stored secrets stay. */
export interface PolicyChangeRequest {
  policy: UsagePolicy & { secrets?: Record<string, string> };
  acceptUnlimited?: boolean;
}

/** One id's outcome of a bulk approval or rejection. */
export interface BulkOutcome { id: string; done: boolean; status?: string; error?: string | null }

/** The answer of a decision on everything a filter matches. */
export interface BulkResult { matched: number; done: number; failed: number; outcomes: BulkOutcome[] }

export const pending = {
  listPath: (filter: PendingFilter, page: number, size: number, sort?: string) =>
    `${L}/tools/pending${query({ ...filter, sort, page, size })}`,
  async list(filter: PendingFilter, page: number, size: number, sort?: string): Promise<Page<PendingTool>> {
    return toPage<PendingTool>(await http.get(pending.listPath(filter, page, size, sort)), page, size);
  },
  get: (id: string) => http.get<PendingTool>(`${L}/tools/pending/${encodeURIComponent(id)}`),
  approve: (id: string, req: ApprovalRequest) =>
    http.post<unknown>(`${L}/tools/pending/${encodeURIComponent(id)}/approve`, req),
  /** A new, sealed approval version of an approved or active tool with this policy (secrets left out are kept). */
  changePolicy: (id: string, req: PolicyChangeRequest) =>
    http.put<unknown>(`${L}/tools/pending/${encodeURIComponent(id)}/policy`, req),
  reject: (id: string, reason: string) =>
    http.post<unknown>(`${L}/tools/pending/${encodeURIComponent(id)}/reject`, { reason }),
  approveMany: (ids: string[], req: ApprovalRequest) => http.post<BulkOutcome[]>(`${L}/tools/pending/approve`, { ids, ...req }),
  rejectMany: (ids: string[], reason: string) => http.post<BulkOutcome[]>(`${L}/tools/pending/reject`, { ids, reason }),
  /** Every candidate the filter matches, only while it matches exactly the count the admin confirmed (else 409). */
  approveMatching: (filter: PendingFilter, expectedCount: number, req: ApprovalRequest) =>
    http.post<BulkResult>(`${L}/tools/pending/approve`, { filter: nonEmpty(filter), expectedCount, ...req }),
  rejectMatching: (filter: PendingFilter, expectedCount: number, reason: string) =>
    http.post<BulkResult>(`${L}/tools/pending/reject`, { filter: nonEmpty(filter), expectedCount, reason }),
};

function nonEmpty<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

export interface SearchInput {
  queryText: string;
  filters?: { namespace?: string; domain?: string; risk?: Risk[]; status?: string };
  limit?: number;
}

export const catalog = {
  async list(filter: { namespace?: string; domain?: string; status?: string }, page: number, size: number) {
    return toPage<ToolManifest & { status?: string }>(await http.get(`${L}/tools${query({ ...filter, page, size })}`), page, size);
  },
  async search(input: SearchInput): Promise<SearchHit[]> {
    const body = await http.post<unknown>(`${L}/tools/search`, input);
    return toPage<SearchHit>(body, 0, input.limit ?? 20).items;
  },
  get: (id: string) => http.get<Record<string, unknown>>(`${L}/tools/${encodeURIComponent(id)}`),
};

export const notifications = {
  /** A page of notifications, newest first, with the number still unread. */
  async list(page: number, size: number, unreadOnly = false): Promise<Page<Notification> & { unread: number | null }> {
    const body = await http.get<Record<string, unknown>>(`${L}/notifications${query({ page, size, unreadOnly: unreadOnly || undefined })}`);
    return { ...toPage<Notification>(body, page, size), unread: typeof body?.unread === 'number' ? body.unread : null };
  },
  markRead: (id: string) => http.post<unknown>(`${L}/notifications/${encodeURIComponent(id)}/read`),
  markAllRead: () => http.post<{ marked: number }>(`${L}/notifications/read-all`),
};

/** The librarian's audit actions (GET /audit?action=). */
export const AUDIT_ACTIONS = ['SOURCE_CREATED', 'SOURCE_UPDATED', 'SOURCE_DELETED', 'APPROVED', 'REJECTED', 'POLICY_CHANGED', 'SUSPENDED', 'DRAFT_FILED',
  'REPLACED', 'CATALOGED', 'CATALOG_ACCESS_CHANGED', 'CATALOG_STATUS_CHANGED', 'RETIRED', 'BUILD_REFUSED', 'BULK_APPROVED', 'BULK_REJECTED',
  'SIGN_IN_LOCKED', 'SIGN_IN_UNLOCKED', 'HEALTH_THRESHOLDS_CHANGED'];

export const audit = {
  async list(filter: { actor?: string; action?: string; subjectId?: string }, page: number, size: number) {
    return toPage<AuditEntry>(await http.get(`${L}/audit${query({ ...filter, page, size })}`), page, size);
  },
};

export interface GapMatch { candidateId: string; toolId?: string; name?: string; status?: string; score: number; confidence: number }
export interface Gap {
  normalizedVerb: string; actionVerb: string; description?: string; timesSeen: number; firstSeenAt?: string; lastSeenAt?: string;
  matches?: GapMatch[]; draft?: { candidateId: string; toolId: string; revision: number; status: string } | null;
}

export const gaps = {
  async list(page: number, size: number): Promise<Page<Gap>> {
    return toPage<Gap>(await http.get(`${L}/gaps${query({ page, size })}`), page, size);
  },
};

export interface HealthThresholds {
  failuresToDisable: number; successesToEnable: number; errorRateThreshold: number; errorRateWindow: number; intervalSeconds: number;
}

export const plugins = {
  /** GET /plugins answers the whole registry; the UI pages it itself. */
  async list(page: number, size: number): Promise<Page<Plugin>> {
    const all = toPage<Plugin>(await http.get(`${C}/plugins`), 0, size).items;
    return { items: all.slice(page * size, (page + 1) * size), total: all.length, page, size };
  },
  get: (id: string) => http.get<Record<string, unknown>>(`${C}/plugins/${encodeURIComponent(id)}`),
  usage: (id: string, period?: string) => http.get<Record<string, unknown>>(`${C}/plugins/${encodeURIComponent(id)}/usage${query({ period })}`),
  enable: (id: string) => http.post<unknown>(`${C}/plugins/${encodeURIComponent(id)}/enable`),
  disable: (id: string, reason?: string) => http.post<unknown>(`${C}/plugins/${encodeURIComponent(id)}/disable`, reason ? { reason } : undefined),
  probe: (id: string) => http.post<unknown>(`${C}/plugins/${encodeURIComponent(id)}/probe`),
  /** A wrapped plugin's own health thresholds; omitted fields fall back to the configured defaults. */
  setThresholds: (id: string, t: Partial<HealthThresholds>) => http.put<HealthThresholds>(`${C}/plugins/${encodeURIComponent(id)}/health-thresholds`, t),
};

export const usage = {
  overall: (period?: string) => http.get<Record<string, unknown>>(`${C}/usage${query({ period })}`),
};

export const builds = {
  async list(filter: { toolId?: string; state?: string }, page: number, size: number): Promise<Page<Build>> {
    return toPage<Build>(await http.get(`${E}/builds${query({ ...filter, page, size })}`), page, size);
  },
  get: (id: string) => http.get<Build>(`${E}/builds/${encodeURIComponent(id)}`),
  retry: (id: string) => http.post<unknown>(`${E}/builds/${encodeURIComponent(id)}/retry`),
};
