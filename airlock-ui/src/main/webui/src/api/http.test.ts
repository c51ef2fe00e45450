import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchEarly, http, onUnauthorized } from './http';
import { stubFetch } from '../test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

describe('fetchEarly', () => {
  it('answers the first GET of its path from the request started early, once', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/pending', 200, { items: [{ id: 'a' }], total: 1 }]]);
    fetchEarly('/api/librarian/tools/pending?size=25');
    expect(await http.get('/api/librarian/tools/pending?size=25')).toEqual({ items: [{ id: 'a' }], total: 1 });
    expect(calls).toHaveLength(1);
    await http.get('/api/librarian/tools/pending?size=25');
    expect(calls).toHaveLength(2); // used once: the next read goes to the server
  });

  it('drops a refused early request silently: the screen asks again and only that answer counts', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/pending', 401, { status: 401, error: 'authentication required' }]]);
    const ended = vi.fn();
    const stop = onUnauthorized(ended);
    fetchEarly('/api/librarian/tools/pending?size=25');
    await Promise.resolve();
    expect(ended).not.toHaveBeenCalled();
    await expect(http.get('/api/librarian/tools/pending?size=25')).rejects.toThrow('authentication required');
    expect(calls).toHaveLength(2);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });
});
