import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Shell } from './Shell';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

afterEach(() => { vi.unstubAllGlobals(); window.location.hash = ''; });

describe('Shell', () => {
  it('shows a not-found page for an unknown route instead of another screen', async () => {
    stubFetch([['GET', '/api/librarian/notifications', 200, { items: [], total: 0, unread: 0 }]]);
    window.location.hash = '#/nonexistent';
    renderAs('admin', <Shell onSignedOut={() => {}} />);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('#/nonexistent')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Review queue' })).toBeNull();
  });

  it('has a skip link to the content and links to every screen, gaps and builds included', async () => {
    stubFetch([['GET', '/api/librarian/notifications', 200, { items: [], total: 0, unread: 0 }], ['GET', '/api/librarian/gaps', 200, { items: [], total: 0 }]]);
    window.location.hash = '#/gaps';
    renderAs('admin', <Shell onSignedOut={() => {}} />);
    expect(await screen.findByRole('heading', { name: 'Capability gaps' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    for (const name of ['Review queue', 'Sources', 'Gaps', 'Builds', 'Catalog', 'Audit log']) {
      expect(screen.getByRole('link', { name })).toBeInTheDocument();
    }
  });
});
