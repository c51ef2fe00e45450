import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from './Notifications';
import { Shell } from './Shell';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

// Shape as the librarian answers it (NotificationResource.ItemPage, newest first).
const SOURCE_ID = '7d1f5c1e-0000-4000-8000-000000000001';
const CANDIDATE_ID = '7d1f5c1e-0000-4000-8000-000000000002';
function inbox() {
  return {
    items: [
      { id: 'n-1', kind: 'PLUGIN_DISABLED', severity: 'CRITICAL', title: 'Plugin ipinfo/get-city disabled', message: '3 consecutive probe failures.', subjectId: 'ipinfo/get-city', createdAt: '2026-11-22T05:00:00Z', readAt: null },
      { id: 'n-2', kind: 'NEW_PENDING_TOOLS', severity: 'INFO', title: '3 new and 1 changed tools from petstore await review', message: 'Source petstore (openapi) was scanned: 19 tools found.', subjectId: SOURCE_ID, createdAt: '2026-11-22T04:00:00Z', readAt: null },
      { id: 'n-3', kind: 'BUILD_FAILED', severity: 'WARNING', title: 'Building petstore/create-pet failed', message: 'verification failed', subjectId: CANDIDATE_ID, createdAt: '2026-11-22T03:00:00Z', readAt: '2026-11-22T03:30:00Z' },
      { id: 'n-4', kind: 'SOURCE_SCAN_FAILED', severity: 'WARNING', title: 'Scanning source broken failed', message: 'connection refused', subjectId: SOURCE_ID, createdAt: '2026-11-22T02:00:00Z', readAt: '2026-11-22T02:30:00Z' },
    ],
    unread: 2, page: 0, size: 25, total: 4,
  };
}

const NOTIFICATIONS = '/api/librarian/notifications';

afterEach(() => {
  vi.unstubAllGlobals();
  window.location.hash = '';
});

describe('Notifications', () => {
  it('lists newest first with severity, kind, message and a link to the subject', async () => {
    const calls = stubFetch([['GET', NOTIFICATIONS, 200, inbox()]]);
    renderAs('viewer', <Notifications onChange={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    const items = (await screen.findAllByRole('listitem'));
    expect(calls[0].url).toBe('/api/librarian/notifications?page=0&size=25');
    expect(items.map((li) => within(li).getByRole('link').textContent)).toEqual([
      'Plugin ipinfo/get-city disabled', '3 new and 1 changed tools from petstore await review',
      'Building petstore/create-pet failed', 'Scanning source broken failed',
    ]);
    expect(within(items[0]).getByText('critical')).toBeInTheDocument();
    expect(within(items[0]).getByText(/plugin disabled/)).toBeInTheDocument();
    expect(within(items[0]).getByText('3 consecutive probe failures.')).toBeInTheDocument();
    expect(within(items[0]).getByRole('link')).toHaveAttribute('href', '#/health/ipinfo%2Fget-city');
    // A scan's "new pending tools" names the source, not a candidate: it opens the queue.
    expect(within(items[1]).getByRole('link')).toHaveAttribute('href', '#/review');
    expect(within(items[2]).getByRole('link')).toHaveAttribute('href', `#/review/${CANDIDATE_ID}`);
    expect(within(items[3]).getByRole('link')).toHaveAttribute('href', '#/sources');
    // Unread ones are marked and offer "Mark read"; read ones do not.
    expect(items.map((li) => li.classList.contains('unread'))).toEqual([true, true, false, false]);
    expect(within(items[0]).getByRole('button', { name: 'Mark read' })).toBeInTheDocument();
    expect(within(items[2]).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Mark all 2 read' })).toBeInTheDocument();
  });

  it('marks one read through the librarian, reloads and tells the shell (a viewer may)', async () => {
    const data = inbox();
    const calls = stubFetch([
      ['GET', NOTIFICATIONS, 200, data],
      ['POST', `${NOTIFICATIONS}/n-1/read`, 204],
    ]);
    const onChange = vi.fn();
    renderAs('viewer', <Notifications onChange={onChange} />);
    const first = (await screen.findAllByRole('listitem'))[0];
    // What the librarian answers once the notification is read.
    data.items[0].readAt = '2026-11-22T06:00:00Z';
    data.unread = 1;
    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: 'Mark read' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    const post = calls.filter((c) => c.method === 'POST');
    expect(post.map((c) => c.url)).toEqual(['/api/librarian/notifications/n-1/read']);
    expect(post[0].headers['X-Requested-With']).toBe('toolsmith-airlock');
    expect(await screen.findByRole('button', { name: 'Mark all 1 read' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Mark read' })).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });

  it('shows the server\'s refusal, then marks all read and clears it', async () => {
    const calls = stubFetch([
      ['GET', NOTIFICATIONS, 200, inbox()],
      ['POST', `${NOTIFICATIONS}/read-all`, 200, { marked: 2 }],
      ['POST', `${NOTIFICATIONS}/n-2/read`, 404, { error: 'no notification n-2' }],
    ]);
    const onChange = vi.fn();
    renderAs('admin', <Notifications onChange={onChange} />);
    const user = userEvent.setup();
    await user.click(within((await screen.findAllByRole('listitem'))[1]).getByRole('button', { name: 'Mark read' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('no notification n-2');
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Mark all 2 read' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/librarian/notifications/n-2/read', '/api/librarian/notifications/read-all']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the unread count on the bell and lowers it after marking read', async () => {
    window.location.hash = '#/notifications';
    const data = inbox();
    const calls = stubFetch([
      ['GET', NOTIFICATIONS, 200, data],
      ['POST', `${NOTIFICATIONS}/n-1/read`, 204],
    ]);
    renderAs('viewer', <Shell onSignedOut={() => {}} />);
    expect(await screen.findByTestId('unread-count')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: /^Notifications\s*2\s*unread$/ })).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/librarian/notifications?page=0&size=1&unreadOnly=true')).toBe(true);
    const first = (await screen.findAllByRole('listitem'))[0];
    data.items[0].readAt = '2026-11-22T06:00:00Z';
    data.unread = 1;
    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: 'Mark read' }));
    await waitFor(() => expect(screen.getByTestId('unread-count')).toHaveTextContent('1'));
    expect(calls.filter((c) => c.url === '/api/librarian/notifications?page=0&size=1&unreadOnly=true')).toHaveLength(2);
  });

  it('pages through a long inbox', async () => {
    const many = {
      items: Array.from({ length: 25 }, (_, i) => ({ id: `n-${i}`, kind: 'CAPABILITY_GAP', severity: 'INFO', title: `Capability gap G${i}`, subjectId: `G${i}`, createdAt: '2026-11-22T05:00:00Z', readAt: '2026-11-22T05:00:00Z' })),
      unread: 0, page: 0, size: 25, total: 60,
    };
    const calls = stubFetch([['GET', NOTIFICATIONS, 200, many]]);
    renderAs('admin', <Notifications onChange={() => {}} />);
    expect(await screen.findByText('Page 1 of 3 · 60 in all')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Mark all/ })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next ›' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/librarian/notifications?page=1&size=25'));
    expect(await screen.findByText('Page 2 of 3 · 60 in all')).toBeInTheDocument();
  });

  it('has an empty state and an error state with Try again', async () => {
    stubFetch([['GET', NOTIFICATIONS, 200, { items: [], unread: 0, page: 0, size: 25, total: 0 }]]);
    const { unmount } = renderAs('viewer', <Notifications onChange={() => {}} />);
    expect(await screen.findByText(/No notifications\. New pending tools/)).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    const calls = stubFetch([['GET', NOTIFICATIONS, 502, { error: 'librarian is unreachable' }]]);
    renderAs('viewer', <Notifications onChange={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('librarian is unreachable');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
