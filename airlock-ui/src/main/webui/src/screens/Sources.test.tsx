import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Sources } from './Sources';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

const list = [{ id: 's-1', name: 'petstore', type: 'openapi', url: 'http://127.0.0.1:9/p.json', status: 'FAILED', lastScanAt: '2026-11-22T05:00:00Z', counts: { found: 19, added: 3, changed: 1, skipped: 0 }, lastError: 'fetch failed: connection refused' }];

beforeEach(() => { window.location.hash = '#/sources'; });
afterEach(() => vi.unstubAllGlobals());

describe('Sources', () => {
  it('lists type, status, counts and the last error', async () => {
    stubFetch([['GET', '/api/librarian/tools/sources', 200, list]]);
    renderAs('viewer', <Sources />);
    expect(await screen.findByText('petstore')).toBeInTheDocument();
    expect(screen.getByTestId('source-petstore')).toHaveTextContent('openapi');
    expect(screen.getByText('19')).toBeInTheDocument();
    expect(screen.getByText('fetch failed: connection refused')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add source|Scan now|Edit|Delete/ })).toBeNull();
  });

  it('shows an empty state', async () => {
    stubFetch([['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('admin', <Sources />);
    expect(await screen.findByText(/No sources yet/)).toBeInTheDocument();
  });

  it('validates the add form before sending and shows the server\'s reason', async () => {
    const calls = stubFetch([
      ['GET', '/api/librarian/tools/sources', 200, []],
      ['POST', '/api/librarian/tools/sources', 400, { error: 'url: private addresses are not allowed', pointer: '/url' }],
    ]);
    renderAs('admin', <Sources />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add source' }));
    // The dialog's submit button is the second "Add source" on the page.
    await user.click(screen.getAllByRole('button', { name: 'Add source' })[1]);
    expect(screen.getByText('Give the source a name')).toBeInTheDocument();
    expect(screen.getByText('Enter the address of the source')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByLabelText('Name'), 'internal');
    await user.type(screen.getByLabelText('URL'), 'http://10.0.0.5/spec.json');
    await user.click(screen.getAllByRole('button', { name: 'Add source' })[1]);
    await waitFor(() => expect(screen.getByText('url: private addresses are not allowed (at /url)')).toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')[0].body).toMatchObject({ name: 'internal', url: 'http://10.0.0.5/spec.json', type: 'openapi' });
  });

  it('searches, filters by status and sorts on the server, kept in the URL', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/sources', 200, { items: list, total: 1, page: 0, size: 25 }]]);
    renderAs('viewer', <Sources />);
    await screen.findByText('petstore');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search'), 'pet');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.selectOptions(screen.getByLabelText('Status'), 'FAILED');
    await user.click(screen.getByRole('button', { name: /^Last scan/ }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools/sources?q=pet&status=FAILED&sort=lastscan&page=0&size=25'));
    expect(window.location.hash).toBe('#/sources?q=pet&status=FAILED&sort=lastscan');
    expect(screen.getByRole('link', { name: 'its tools in the review queue' })).toHaveAttribute('href', '#/review?source=s-1&status=');
  });
});
