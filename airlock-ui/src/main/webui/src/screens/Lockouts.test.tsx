import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuditLog } from './AuditLog';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

describe('Lockouts', () => {
  it('shows admins the locked accounts and addresses and lifts one', async () => {
    const calls = stubFetch([
      ['GET', '/api/session/lockouts', 200, { lockouts: [{ kind: 'account', key: 'admin', failures: 10, lockedUntil: '2026-11-22T05:15:00Z' }] }],
      ['DELETE', '/api/session/lockouts/account/admin', 204],
      ['GET', '/api/librarian/audit', 200, { items: [], total: 0 }],
    ]);
    renderAs('admin', <AuditLog />);
    expect(await screen.findByTestId('lockouts')).toHaveTextContent('account admin');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Lift lockout of account admin' }));
    expect(await screen.findByText('Lifted the lockout of account admin.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/session/lockouts/account/admin')).toBe(true));
  });

  it('is not shown to a viewer', async () => {
    const calls = stubFetch([['GET', '/api/librarian/audit', 200, { items: [], total: 0 }]]);
    renderAs('viewer', <AuditLog />);
    expect(await screen.findByText('No audit entries match.')).toBeInTheDocument();
    expect(screen.queryByText('Sign-in lockouts')).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/session/lockouts'))).toBe(false);
  });
});
