// The one way the SPA talks to its backend: same origin, session cookie, JSON, and the X-Requested-With
// header the backend requires on every state-changing call (its CSRF guard).

export class ApiError extends Error {
  readonly status: number;
  readonly pointer?: string;
  constructor(status: number, message: string, pointer?: string) {
    super(message);
    this.status = status;
    this.pointer = pointer;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any call answers 401: the session expired or was signed out elsewhere. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Reads the most useful message out of an error body, whatever service produced it. */
export function messageOf(body: unknown, fallback: string): { message: string; pointer?: string } {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const pointer = typeof b.pointer === 'string' ? b.pointer : undefined;
    for (const key of ['error', 'message', 'detail', 'title', 'reason']) {
      const v = b[key];
      if (typeof v === 'string' && v.trim()) {
        return { message: pointer && !v.includes(pointer) ? `${v} (at ${pointer})` : v, pointer };
      }
    }
    if (Array.isArray(b.violations) && b.violations.length > 0) {
      const msgs = (b.violations as Array<Record<string, unknown>>).map((v) =>
        [v.field, v.message].filter(Boolean).join(': '),
      );
      return { message: msgs.join('; '), pointer };
    }
  }
  if (typeof body === 'string' && body.trim() && body.length < 500) return { message: body.trim() };
  return { message: fallback };
}

function statusText(status: number): string {
  switch (status) {
    case 401: return 'Please sign in again.';
    case 403: return 'You are not allowed to do this.';
    case 404: return 'Not found.';
    case 413: return 'The request is too large.';
    case 502: return 'A Toolsmith service is unreachable.';
    case 504: return 'A Toolsmith service did not answer in time.';
    default: return `The server answered ${status}.`;
  }
}

/** GETs started before the app knew who is signed in, by path (see {@link fetchEarly}). */
const early = new Map<string, { at: number; text: Promise<string | null> }>();
/** An early answer older than this is not used: the screen asks again. */
const EARLY_FRESH_MS = 10_000;

/**
 * Starts a GET before the session check answers, so a cold first paint waits for one round trip, not two
 * (the session, then the list). Its answer is used once, by the first {@link request} of the same path;
 * a failed early request (401 for a browser that is not signed in, a network error) is simply dropped and
 * that request goes to the server as usual, so it never reports a session as ended.
 */
export function fetchEarly(path: string) {
  const text = fetch(path, { method: 'GET', headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then((r) => (r.ok ? r.text() : null), () => null);
  early.set(path, { at: Date.now(), text });
}

async function takeEarly(path: string): Promise<string | null> {
  const started = early.get(path);
  if (!started) return null;
  early.delete(path);
  return Date.now() - started.at < EARLY_FRESH_MS ? started.text : null;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (method === 'GET') {
    const text = await takeEarly(path);
    if (text) {
      try { return JSON.parse(text) as T; } catch { /* not JSON: ask again below */ }
    }
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (method !== 'GET' && method !== 'HEAD') {
    headers['X-Requested-With'] = 'toolsmith-airlock';
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'Cannot reach the Airlock server. Check your connection.');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    if (response.status === 401) unauthorizedListeners.forEach((l) => l());
    const { message, pointer } = messageOf(parsed, statusText(response.status));
    throw new ApiError(response.status, message, pointer);
  }
  return parsed as T;
}

export const http = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  del: <T>(path: string) => request<T>('DELETE', path),
};

/** A page of a long list, whatever envelope the service uses. */
export interface Page<T> {
  items: T[];
  total: number | null;
  page: number;
  size: number;
}

/**
 * Services answer lists as a bare array or as an envelope ({items|content|results|data, total, page,
 * size}); this reads either without guessing values that are not there.
 */
export function toPage<T>(body: unknown, page: number, size: number): Page<T> {
  if (Array.isArray(body)) return { items: body as T[], total: null, page, size };
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const key = ['items', 'content', 'results', 'data', 'entries', 'hits'].find((k) => Array.isArray(b[k]));
    const items = key ? (b[key] as T[]) : [];
    const totalRaw = b.total ?? b.totalItems ?? b.totalElements ?? b.count;
    return {
      items,
      total: typeof totalRaw === 'number' ? totalRaw : null,
      page: typeof b.page === 'number' ? b.page : page,
      size: typeof b.size === 'number' ? b.size : size,
    };
  }
  return { items: [], total: 0, page, size };
}

export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
