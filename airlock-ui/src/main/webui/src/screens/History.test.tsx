import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { History } from './History';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

describe('History', () => {
  it('puts revisions, approvals, policy changes, versions, status changes with reasons and failed probes on one timeline', async () => {
    stubFetch([
      ['GET', '/api/librarian/tools/pending', 200, { items: [
        { id: 'c-2', toolId: 'fx/convert', revision: 2, sourceId: 's-1', sourceName: 'frankfurter', status: 'ACTIVE', updatedAt: '2026-11-20T10:00:00Z' },
        { id: 'c-9', toolId: 'fx/convert-v2', revision: 1, sourceName: 'other', status: 'PENDING' },
      ], total: 2 }],
      ['GET', '/api/librarian/audit', 200, { items: [
        { at: '2026-11-20T09:00:00Z', actor: 'alice', action: 'APPROVED', subjectType: 'candidate', subjectId: 'c-2', summary: 'Approved fx/convert (revision 2)' },
        { at: '2026-11-20T09:00:01Z', actor: 'alice', action: 'POLICY_CHANGED', subjectType: 'tool', subjectId: 'fx/convert', summary: 'Policy of fx/convert changed with revision 2' },
      ], total: 2 }],
      ['GET', '/api/librarian/tools/fx%2Fconvert', 200, { id: 'fx/convert', versions: [{ version: 2, createdAt: '2026-11-20T09:05:00Z' }] }],
      ['GET', '/api/capabilities/plugins/fx%2Fconvert', 200, {
        statusHistory: [{ at: '2026-11-21T08:00:00Z', status: 'DISABLED', reason: 'vendor outage, ticket 4711', by: 'bob' }],
        healthHistory: [{ at: '2026-11-21T07:59:00Z', ok: false, error: 'HTTP 503' }, { at: '2026-11-21T07:58:00Z', ok: true }],
      }],
    ]);
    renderAs('viewer', <History toolId="fx/convert" />);
    expect(await screen.findByRole('link', { name: 'revision 2' })).toHaveAttribute('href', '#/review/c-2');
    expect(screen.queryByText('other')).toBeNull();
    const events = screen.getByTestId('history-events');
    const rows = [...events.querySelectorAll('tbody tr')].map((r) => r.textContent ?? '');
    expect(rows[0]).toContain('STATUS DISABLED');
    expect(rows[0]).toContain('vendor outage, ticket 4711');
    expect(rows[0]).toContain('bob');
    expect(rows[1]).toContain('PROBE FAILED');
    expect(rows.some((r) => r.includes('VERSION') && r.includes('version 2 catalogued'))).toBe(true);
    expect(rows.some((r) => r.includes('POLICY_CHANGED') && r.includes('alice'))).toBe(true);
    expect(rows.filter((r) => r.includes('APPROVED')).length).toBeGreaterThan(0);
  });
});
