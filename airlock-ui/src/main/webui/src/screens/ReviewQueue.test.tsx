import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReviewQueue } from './ReviewQueue';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

const page = {
  items: [
    { id: 'p-1', verb: 'CREATE_PET', name: 'createPet', risk: 'WRITE_REMOTE', sourceName: 'petstore', changed: false, status: 'PENDING', operationKey: 'POST /pets' },
    { id: 'p-2', verb: 'LIST_PETS', name: 'listPets', risk: 'READ_ONLY', sourceName: 'petstore', changed: true, status: 'PENDING', gaps: ['FIND_PET'], operationKey: 'GET /pets' },
  ],
  total: 2,
};

beforeEach(() => { window.location.hash = '#/review'; });
afterEach(() => vi.unstubAllGlobals());

describe('ReviewQueue', () => {
  it('shows each row with verb, risk, source and new/changed, and admins get bulk actions', async () => {
    stubFetch([['GET', '/api/librarian/tools/pending', 200, page], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('admin', <ReviewQueue />);
    expect(await screen.findByText('CREATE_PET')).toBeInTheDocument();
    expect(screen.getByText('writes remotely')).toBeInTheDocument();
    expect(screen.getByText('read-only')).toBeInTheDocument();
    expect(screen.getByText('changed')).toBeInTheDocument();
    expect(screen.getByText('FIND_PET')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve selected…' })).toBeDisabled();
    expect(screen.getByLabelText('select CREATE_PET')).toBeInTheDocument();
  });

  it('marks a candidate that replaces a tool in service, and one that cannot be approved (issue 18, findings 3 and 6)', async () => {
    const collisions = { items: [
      { id: 'p-3', verb: 'GET_QUOTE', name: 'get_quote', risk: 'WRITE_REMOTE', sourceName: 'copycat', changed: false, status: 'PENDING', collision: 'REPLACES' },
      { id: 'p-4', verb: 'CONVERT_UNITS', name: 'convert_units', risk: 'READ_ONLY', sourceName: 'units', changed: false, status: 'PENDING', collision: 'REFUSED' },
    ], total: 2 };
    stubFetch([['GET', '/api/librarian/tools/pending', 200, collisions], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('admin', <ReviewQueue />);
    expect(await screen.findByText('GET_QUOTE')).toBeInTheDocument();
    expect(screen.getByTestId('pending-GET_QUOTE')).toHaveTextContent('replaces');
    expect(screen.getByTestId('pending-GET_QUOTE')).not.toHaveTextContent('new');
    expect(screen.getByTestId('pending-CONVERT_UNITS')).toHaveTextContent('cannot be approved');
  });

  it('hides every changing control from a viewer', async () => {
    stubFetch([['GET', '/api/librarian/tools/pending', 200, page], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('viewer', <ReviewQueue />);
    expect(await screen.findByText('CREATE_PET')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reject/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('sends the filters to the librarian', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/pending', 200, page], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('viewer', <ReviewQueue />);
    await screen.findByText('CREATE_PET');
    expect(calls.find((c) => c.url.startsWith('/api/librarian/tools/pending'))!.url).toBe('/api/librarian/tools/pending?status=PENDING%2CBUILD_FAILED&sort=-updated&page=0&size=25');
  });

  it('has an empty state and an error state', async () => {
    stubFetch([['GET', '/api/librarian/tools/pending', 200, { items: [], total: 0 }], ['GET', '/api/librarian/tools/sources', 200, []]]);
    const { unmount } = renderAs('admin', <ReviewQueue />);
    expect(await screen.findByText(/No tools waiting for review/)).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    stubFetch([['GET', '/api/librarian/tools/pending', 502, { error: 'librarian is unreachable: Connection refused' }], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('admin', <ReviewQueue />);
    expect(await screen.findByRole('alert')).toHaveTextContent('librarian is unreachable: Connection refused');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('searches, sorts and pages on the server, and keeps all of it in the URL', async () => {
    const calls = stubFetch([['GET', '/api/librarian/tools/pending', 200, page], ['GET', '/api/librarian/tools/sources', 200, []]]);
    renderAs('admin', <ReviewQueue />);
    await screen.findByText('CREATE_PET');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search'), 'pets');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.selectOptions(screen.getByLabelText('Risk'), 'DESTRUCTIVE');
    await user.click(screen.getByRole('button', { name: /^Verb/ }));
    await user.click(screen.getByRole('button', { name: /^Verb/ }));
    await user.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/tools/pending?risk=DESTRUCTIVE&status=PENDING%2CBUILD_FAILED&q=pets&sort=-verb&page=0&size=100'));
    expect(window.location.hash).toBe('#/review?risk=DESTRUCTIVE&q=pets&sort=-verb&size=100');
    expect(screen.getByRole('columnheader', { name: /Verb/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('rejects every tool that matches the filter only after the count is confirmed, and keeps the filter', async () => {
    window.location.hash = '#/review?risk=DESTRUCTIVE';
    const many = { items: page.items, total: 312, page: 0, size: 25 };
    const calls = stubFetch([
      ['GET', '/api/librarian/tools/pending', 200, many], ['GET', '/api/librarian/tools/sources', 200, []],
      ['POST', '/api/librarian/tools/pending/reject', 200, { matched: 312, done: 312, failed: 0, outcomes: [] }],
    ]);
    renderAs('admin', <ReviewQueue />);
    await screen.findByText('CREATE_PET');
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('select all on this page'));
    await user.click(screen.getByRole('button', { name: 'Select all 312 tools that match' }));
    expect(screen.getByTestId('selected-count')).toHaveTextContent('312 selected');
    await user.click(screen.getByRole('button', { name: 'Reject selected…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject 312 matching tools' });
    expect(dialog).toHaveTextContent('Filter: status pending or build failed, risk destructive');
    await user.type(screen.getByLabelText('Reason (required)'), 'no destructive tools this quarter');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.getByText('Confirm that all 312 matching tools are meant.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByLabelText('Yes, reject all 312 matching tools'));
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Rejected 312 tools.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')[0].body).toEqual({
      filter: { risk: 'DESTRUCTIVE', status: 'PENDING,BUILD_FAILED' }, expectedCount: 312, reason: 'no destructive tools this quarter',
    });
    expect(window.location.hash).toBe('#/review?risk=DESTRUCTIVE');
    expect(screen.getByLabelText('Risk')).toHaveValue('DESTRUCTIVE');
  });

  it('shows the message a rejection on the review page left for it, once', async () => {
    window.sessionStorage.setItem('toolsmith.flash', 'Rejected CREATE_PET.');
    stubFetch([['GET', '/api/librarian/tools/pending', 200, page], ['GET', '/api/librarian/tools/sources', 200, []]]);
    const { unmount } = renderAs('admin', <ReviewQueue />);
    expect(await screen.findByText('Rejected CREATE_PET.')).toBeInTheDocument();
    unmount();
    renderAs('admin', <ReviewQueue />);
    await screen.findByText('CREATE_PET');
    expect(screen.queryByText('Rejected CREATE_PET.')).toBeNull();
  });
});
