import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { App } from './App';
import { stubFetch } from './test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

describe('App', () => {
  it('asks a brand-new browser to sign in without telling it that its session ended', async () => {
    stubFetch([['GET', '/api/session', 401, { signIn: 'password', loginUrl: '/api/session/login' }]]);
    render(<App />);
    expect(await screen.findByLabelText('User name')).toBeInTheDocument();
    expect(screen.queryByText(/Your session ended/)).toBeNull();
  });
});
