import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Gaps } from './Gaps';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

describe('Gaps', () => {
  it('shows each gap with its description, how often it was seen and the matches with their confidence, linked', async () => {
    stubFetch([['GET', '/api/librarian/gaps', 200, { items: [{
      normalizedVerb: 'CONVERT_CURRENCY', actionVerb: 'convert currency', description: 'Convert an amount between two currencies', timesSeen: 7,
      lastSeenAt: '2026-11-22T05:00:00Z', matches: [{ candidateId: 'c-1', toolId: 'fx/convert', name: 'convert', status: 'PENDING', score: 0.8, confidence: 0.91 }], draft: null,
    }], total: 1, page: 0, size: 25 }]]);
    renderAs('viewer', <Gaps />);
    expect(await screen.findByText('Convert an amount between two currencies')).toBeInTheDocument();
    expect(screen.getByText('91% confident')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'convert' })).toHaveAttribute('href', '#/review/c-1');
    expect(screen.getByRole('link', { name: 'convert currency' })).toHaveAttribute('href', '#/review?gap=CONVERT_CURRENCY&status=');
  });
});
