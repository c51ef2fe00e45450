import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuditLog } from './AuditLog';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

// Shape as the librarian answers it (AuditResource.EntryPage, newest first).
const CANDIDATE = '5b0c2a7e-0000-4000-8000-00000000000c';
const entries = {
  items: [
    {
      id: 'a-2', at: '2026-11-22T05:10:00Z', actor: 'alice', action: 'REJECTED', subjectType: 'candidate', subjectId: CANDIDATE,
      summary: 'Rejected petstore/delete-pet (revision 1): deletes production data',
      before: { status: 'PENDING' }, after: { status: 'REJECTED', reason: 'deletes production data' },
    },
    {
      id: 'a-1', at: '2026-11-21T09:00:00Z', actor: 'bob', action: 'SOURCE_CREATED', subjectType: 'source', subjectId: 's-1',
      summary: 'Created source petstore', before: null, after: { name: 'petstore', url: 'https://petstore.example/openapi.json' },
    },
  ],
  page: 0, size: 50, total: 2,
};
const AUDIT = '/api/librarian/audit';

beforeEach(() => { window.location.hash = '#/audit'; });
afterEach(() => vi.unstubAllGlobals());

describe('AuditLog', () => {
  it('shows when, who, action, subject, what happened and before → after', async () => {
    const calls = stubFetch([['GET', AUDIT, 200, entries]]);
    renderAs('viewer', <AuditLog />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    const table = await screen.findByTestId('audit-table');
    expect(calls.map((c) => c.url)).toEqual(['/api/librarian/audit?page=0&size=50']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = within(rows[0]).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent(new Date('2026-11-22T05:10:00Z').toLocaleString());
    expect(cells[1]).toHaveTextContent('alice');
    expect(cells[2]).toHaveTextContent('REJECTED');
    expect(cells[3]).toHaveTextContent(`candidate ${CANDIDATE}`);
    expect(cells[4]).toHaveTextContent('Rejected petstore/delete-pet (revision 1): deletes production data');
    expect(cells[5].querySelector('.diff-old')).toHaveTextContent('{"status":"PENDING"}');
    expect(cells[5].querySelector('.diff-new')).toHaveTextContent('{"status":"REJECTED","reason":"deletes production data"}');
    const second = within(rows[1]).getAllByRole('cell');
    expect(second[1]).toHaveTextContent('bob');
    expect(second[2]).toHaveTextContent('SOURCE_CREATED');
    // A creation has no "before".
    expect(second[5].querySelector('.diff-old')).toBeNull();
    expect(second[5].querySelector('.diff-new')).toHaveTextContent('"url":"https://petstore.example/openapi.json"');
    // Nothing to change here, and no pager for a short log.
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('sends the actor, action and subject filters to the librarian', async () => {
    const calls = stubFetch([['GET', AUDIT, 200, entries]]);
    renderAs('admin', <AuditLog />);
    await screen.findByTestId('audit-table');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Who'), 'alice');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?actor=alice&page=0&size=50'));
    await user.selectOptions(screen.getByLabelText('Action'), 'REJECTED');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?actor=alice&action=REJECTED&page=0&size=50'));
    await user.type(screen.getByLabelText('Subject id'), 's-1');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?actor=alice&action=REJECTED&subjectId=s-1&page=0&size=50'));
    await user.selectOptions(screen.getByLabelText('Action'), '');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?actor=alice&subjectId=s-1&page=0&size=50'));
    // The librarian's actions can be picked (it refuses any other value with 400).
    const options = within(screen.getByLabelText('Action')).getAllByRole('option').map((o) => (o as HTMLOptionElement).value);
    expect(options).toEqual(['', 'SOURCE_CREATED', 'SOURCE_UPDATED', 'SOURCE_DELETED', 'APPROVED', 'REJECTED', 'POLICY_CHANGED', 'SUSPENDED', 'DRAFT_FILED',
      'REPLACED', 'CATALOGED', 'CATALOG_ACCESS_CHANGED', 'CATALOG_STATUS_CHANGED', 'RETIRED', 'BUILD_REFUSED', 'BULK_APPROVED', 'BULK_REJECTED',
      'SIGN_IN_LOCKED', 'SIGN_IN_UNLOCKED', 'HEALTH_THRESHOLDS_CHANGED']);
  });

  it('pages 50 at a time and goes back to the first page when a filter changes', async () => {
    const first = {
      items: Array.from({ length: 50 }, (_, i) => ({ id: `a-${i}`, at: '2026-11-22T05:00:00Z', actor: `user${i}`, action: 'APPROVED', subjectType: 'candidate', subjectId: `c-${i}`, summary: `Approved tool ${i}` })),
      page: 0, size: 50, total: 120,
    };
    const calls = stubFetch([['GET', AUDIT, 200, first]]);
    renderAs('viewer', <AuditLog />);
    expect(await screen.findByText('Page 1 of 3 · 120 in all')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '‹ Previous' })).toBeDisabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next ›' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?page=1&size=50'));
    expect(await screen.findByText('Page 2 of 3 · 120 in all')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next ›' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?page=2&size=50'));
    await user.selectOptions(screen.getByLabelText('Action'), 'APPROVED');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/audit?action=APPROVED&page=0&size=50'));
  });

  it('has an empty state and an error state with Try again', async () => {
    stubFetch([['GET', AUDIT, 200, { items: [], page: 0, size: 50, total: 0 }]]);
    const { unmount } = renderAs('admin', <AuditLog />);
    expect(await screen.findByText('No audit entries match.')).toBeInTheDocument();
    expect(screen.queryByTestId('audit-table')).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    const calls = stubFetch([['GET', AUDIT, 400, { error: "action: 'NOPE' is not one of [SOURCE_CREATED, …]" }]]);
    renderAs('viewer', <AuditLog />);
    expect(await screen.findByRole('alert')).toHaveTextContent("action: 'NOPE' is not one of [SOURCE_CREATED, …]");
    expect(screen.queryByTestId('audit-table')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
