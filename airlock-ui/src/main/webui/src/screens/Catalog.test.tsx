import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Catalog } from './Catalog';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

// Shapes as the librarian answers them (CatalogPage of ToolSummary, SearchHit[], ToolDetails).
const summary = (i: number) => ({
  id: `fx/tool-${i}`, verb: `CONVERT_${i}`, name: `convert${i}`, description: 'Convert money', namespace: 'fx', domain: 'finance',
  risk: 'READ_ONLY', version: 1, status: 'active', allowedCallers: [], updatedAt: '2026-11-22T05:00:00Z',
});
const browsePage = { items: [summary(1), { ...summary(2), risk: 'DESTRUCTIVE', status: 'disabled', version: 3 }], page: 0, size: 25, total: 2 };
const hits = [
  { toolId: 'fx/convert', verb: 'CONVERT_CURRENCY', name: 'convert', description: 'Convert an amount between currencies', score: 0.8731, confidence: 0.87, matchedOn: ['name', 'description'], risk: 'READ_ONLY', version: 2 },
  { toolId: 'fx/rates', verb: 'GET_RATES', name: 'rates', description: 'Latest exchange rates', score: 0.41, confidence: 0.32, matchedOn: ['tags'], risk: 'WRITE_REMOTE', version: 1 },
];
const details = {
  id: 'fx/convert', version: 2, status: 'disabled', allowedCallers: ['planner', 'finance-bot'],
  manifest: {
    id: 'fx/convert', verb: 'CONVERT_CURRENCY', name: 'convert', description: 'Convert an amount between currencies',
    source: 'frankfurter', namespace: 'fx', risk: 'READ_ONLY', version: 2,
    inputSchema: { type: 'object', required: ['amount'], properties: { amount: { type: 'number', description: 'How much to convert', minimum: 0 } } },
    outputSchema: { type: 'object', properties: { result: { type: 'number', description: 'The converted amount' } } },
    binding: { method: 'GET', serverUrl: 'https://api.frankfurter.app', pathTemplate: '/latest', parameters: [{ name: 'amount', in: 'QUERY' }] },
  },
  versions: [
    { version: 1, contentHash: 'sha256:aaa111', createdAt: '2026-11-01T10:00:00Z' },
    { version: 2, contentHash: 'sha256:bbb222', createdAt: '2026-11-20T10:00:00Z' },
  ],
};

const buttonNames = () => screen.queryAllByRole('button').map((b) => b.textContent?.trim());

afterEach(() => vi.unstubAllGlobals());

describe('Catalog', () => {
  it('searches with the real POST /tools/search, the query and the filters, and ranks the hits with score and confidence', async () => {
    const calls = stubFetch([
      ['GET', '/api/librarian/tools', 200, browsePage],
      ['POST', '/api/librarian/tools/search', 200, hits],
    ]);
    renderAs('admin', <Catalog />);
    const user = userEvent.setup();
    await screen.findByText('CONVERT_1');
    await user.type(screen.getByLabelText('search the catalog'), '  convert euros to dollars ');
    await user.selectOptions(screen.getByLabelText('risk filter'), 'READ_ONLY');
    await user.type(screen.getByLabelText('namespace filter'), 'fx');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const table = await screen.findByTestId('search-results');
    const searches = calls.filter((c) => c.method === 'POST');
    expect(searches).toHaveLength(1);
    expect(searches[0].url).toBe('/api/librarian/tools/search');
    expect(searches[0].body).toEqual({ queryText: 'convert euros to dollars', limit: 20, filters: { risk: ['READ_ONLY'], namespace: 'fx', status: 'active' } });
    expect(searches[0].headers['X-Requested-With']).toBe('toolsmith-airlock');

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('1');
    expect(within(rows[0]).getByRole('link', { name: 'CONVERT_CURRENCY' })).toHaveAttribute('href', '#/catalog/fx%2Fconvert');
    expect(within(rows[0]).getByText('0.873')).toBeInTheDocument();
    expect(within(rows[0]).getByText('87%')).toBeInTheDocument();
    expect(within(rows[0]).getByText('read-only')).toBeInTheDocument();
    expect(within(rows[0]).getByText('name, description')).toBeInTheDocument();
    expect(within(rows[1]).getByText('GET_RATES')).toBeInTheDocument();
    expect(within(rows[1]).getByText('0.410')).toBeInTheDocument();
    expect(within(rows[1]).getByText('32%')).toBeInTheDocument();
    expect(within(rows[1]).getByText('writes remotely')).toBeInTheDocument();
    // The browse list gives way to the results.
    expect(screen.queryByText('CONVERT_1')).toBeNull();
  });

  it('says so when nothing matches, naming the query that was searched', async () => {
    const calls = stubFetch([
      ['GET', '/api/librarian/tools', 200, browsePage],
      ['POST', '/api/librarian/tools/search', 200, []],
    ]);
    renderAs('viewer', <Catalog />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('search the catalog'), 'teleport a cat');
    await user.selectOptions(screen.getByLabelText('status filter'), 'any');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/No tool matches “teleport a cat”/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ queryText: 'teleport a cat', limit: 20, filters: { status: 'any' } });
    expect(screen.queryByTestId('search-results')).toBeNull();
    // Editing the box afterwards does not rewrite what was searched.
    await user.type(screen.getByLabelText('search the catalog'), ' now');
    expect(screen.getByText(/No tool matches “teleport a cat”/)).toBeInTheDocument();
  });

  it('shows the search error with its message and tries again', async () => {
    const calls = stubFetch([
      ['GET', '/api/librarian/tools', 200, browsePage],
      ['POST', '/api/librarian/tools/search', 400, { error: 'risk: unknown value', pointer: '/filters/risk' }],
    ]);
    renderAs('admin', <Catalog />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('search the catalog'), 'convert');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('risk: unknown value (at /filters/risk)');
    expect(screen.queryByTestId('search-results')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1].body).toMatchObject({ queryText: 'convert' });
  });

  it('browses the catalog with loading, status and namespace filters and paging', async () => {
    const first = { items: Array.from({ length: 25 }, (_, i) => summary(i + 1)), page: 0, size: 25, total: 30 };
    const calls = stubFetch([['GET', '/api/librarian/tools', 200, first]]);
    renderAs('viewer', <Catalog />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(await screen.findByText('CONVERT_25')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/librarian/tools?status=active&page=0&size=25');
    expect(screen.getByText('Page 1 of 2 · 30 in all')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next ›' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools?status=active&page=1&size=25'));
    await user.selectOptions(screen.getByLabelText('status filter'), 'disabled');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools?status=disabled&page=0&size=25'));
    await user.selectOptions(screen.getByLabelText('status filter'), 'any');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools?page=0&size=25'));
    await user.type(screen.getByLabelText('namespace filter'), 'fx');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools?namespace=fx&page=0&size=25'));
  });

  it('shows each tool\'s status and gives a viewer no button that changes anything', async () => {
    stubFetch([['GET', '/api/librarian/tools', 200, browsePage], ['POST', '/api/librarian/tools/search', 200, hits]]);
    renderAs('viewer', <Catalog />);
    const row = (await screen.findByText('CONVERT_2')).closest('tr')!;
    expect(within(row).getByText('disabled')).toBeInTheDocument();
    expect(within(row).getByText('destructive')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByText('CONVERT_1').closest('tr')!).getByText('active')).toBeInTheDocument();
    expect(buttonNames()).toEqual(['Search']);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('search the catalog'), 'convert');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByTestId('search-results');
    expect(buttonNames()).toEqual(['Search', 'Clear']);
    expect(screen.queryByRole('button', { name: /Enable|Disable|Delete|Approve|Reject/ })).toBeNull();
  });

  it('has an empty state and an error state with Try again', async () => {
    stubFetch([['GET', '/api/librarian/tools', 200, { items: [], page: 0, size: 25, total: 0 }]]);
    const { unmount } = renderAs('admin', <Catalog />);
    expect(await screen.findByText('The catalog has no tools with these filters yet.')).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    const calls = stubFetch([['GET', '/api/librarian/tools', 502, { error: 'librarian is unreachable' }]]);
    renderAs('admin', <Catalog />);
    expect(await screen.findByRole('alert')).toHaveTextContent('librarian is unreachable');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('shows a tool with its status, risk, versions, callers, parameters and output', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/fx%2Fconvert', 200, details], ['GET', '/api/librarian/tools/pending', 200, { items: [
      { id: 'c-7', toolId: 'fx/convert', revision: 3, sourceId: 's-1', sourceName: 'frankfurter-openapi', status: 'ACTIVE' },
      { id: 'c-8', toolId: 'fx/convert-old', revision: 1, sourceId: 's-2', sourceName: 'other', status: 'ACTIVE' },
    ], total: 2 }]]);
    renderAs('viewer', <Catalog toolId="fx/convert" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(await screen.findByRole('heading', { name: 'CONVERT_CURRENCY' })).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/librarian/tools/fx%2Fconvert');
    // the source of its approved revision, linked, with that review
    expect(await screen.findByRole('link', { name: 'frankfurter-openapi' })).toHaveAttribute('href', '#/sources?q=frankfurter-openapi');
    expect(screen.getByRole('link', { name: 'its review (revision 3)' })).toHaveAttribute('href', '#/review/c-7');
    expect(screen.getByRole('link', { name: 'history' })).toHaveAttribute('href', '#/history/fx%2Fconvert');
    const fact = (label: string) => screen.getByText(label, { selector: '.label' }).parentElement!;
    expect(fact('Status')).toHaveTextContent('disabled');
    expect(fact('Risk')).toHaveTextContent('read-only');
    expect(fact('Version')).toHaveTextContent('2');
    expect(fact('Namespace')).toHaveTextContent('fx');
    expect(fact('Source')).toHaveTextContent('frankfurter');
    expect(fact('Allowed callers')).toHaveTextContent('planner, finance-bot');
    expect(screen.getByText('GET https://api.frankfurter.app/latest')).toBeInTheDocument();
    expect(screen.getByText('How much to convert')).toBeInTheDocument();
    expect(screen.getByText('The converted amount')).toBeInTheDocument();
    expect(screen.getByText('sha256:bbb222')).toBeInTheDocument();
    expect(screen.getByText('sha256:aaa111')).toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('says "no confident match" when every hit is a weak guess, and shows them only on request', async () => {
    stubFetch([['POST', '/api/librarian/tools/search', 200, { hits: [
      { toolId: 'fx/convert', verb: 'CONVERT_CURRENCY', name: 'convert', score: 0.2, confidence: 0.2, matchedOn: ['description'] },
    ] }], ['GET', '/api/librarian/tools', 200, { items: [], total: 0 }]]);
    renderAs('viewer', <Catalog />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('search the catalog'), 'qwxz blorp');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/No confident match for “qwxz blorp”: the best hit is 20% likely/)).toBeInTheDocument();
    expect(screen.queryByTestId('search-results')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show the 1 weak matches' }));
    expect(screen.getByTestId('search-results')).toHaveTextContent('CONVERT_CURRENCY');
  });

  it('shows why a tool cannot be shown', async () => {
    stubFetch([['GET', '/api/librarian/tools/fx%2Fgone', 404, { error: 'no tool fx/gone' }]]);
    renderAs('admin', <Catalog toolId="fx/gone" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('no tool fx/gone');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
