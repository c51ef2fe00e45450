import { vi } from 'vitest';

export interface Call { method: string; url: string; body?: unknown; headers: Record<string, string> }

/**
 * Replaces window.fetch for a component test: each route answers by method and path prefix; every call
 * is recorded so tests can assert what the UI sent. Unmatched calls answer 404.
 */
export function stubFetch(routes: Array<[string, string | RegExp, number, unknown?]>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = (init.headers ?? {}) as Record<string, string>;
    let body: unknown = init.body;
    if (typeof body === 'string') { try { body = JSON.parse(body); } catch { /* form body */ } }
    calls.push({ method, url, body, headers });
    const path = url.split('?')[0];
    const route = routes.find(([m, p]) => m === method && (typeof p === 'string' ? path === p : p.test(path)));
    const [, , status, payload] = route ?? ['', '', 404, { error: `no stub for ${method} ${url}` }];
    // No payload means no body at all, so a 204 (what the librarian answers to "mark read") can be stubbed.
    const text = payload === undefined ? null : JSON.stringify(payload);
    return new Response(text, { status, headers: { 'Content-Type': 'application/json' } });
  }));
  return calls;
}
