import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Login } from './Login';
import { stubFetch } from '../test/fetchStub';
import { session } from '../api/services';

afterEach(() => vi.unstubAllGlobals());

describe('Login', () => {
  it('asks for both fields before calling the server', async () => {
    const calls = stubFetch([]);
    render(<Login onSignedIn={() => {}} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your user name and password.');
    expect(calls).toHaveLength(0);
  });

  it('posts the form with the CSRF header and reports a wrong password', async () => {
    const calls = stubFetch([['POST', '/api/session/login', 401]]);
    const onSignedIn = vi.fn();
    render(<Login onSignedIn={onSignedIn} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('User name'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong user name or password.');
    expect(calls[0].headers['X-Requested-With']).toBeTruthy();
    expect(String(calls[0].body)).toBe('username=admin&password=nope');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('signs in', async () => {
    stubFetch([['POST', '/api/session/login', 200]]);
    const onSignedIn = vi.fn();
    render(<Login onSignedIn={onSignedIn} expired />);
    expect(screen.getByText(/Your session ended/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('User name'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
  });

  it('shows a button to the identity provider instead of the password form when sign-in is OIDC', () => {
    const calls = stubFetch([]);
    render(<Login onSignedIn={() => {}} expired
      signIn={{ signIn: 'oidc', loginUrl: '/api/session/oidc/login', provider: 'Keycloak' }} />);
    const button = screen.getByRole('link', { name: 'Sign in with Keycloak' });
    expect(button).toHaveAttribute('href', '/api/session/oidc/login');
    expect(button).toHaveClass('btn', 'btn-primary');
    expect(screen.getByText(/Your session ended/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('session.signInMethod', () => {
  it('reads the OIDC sign-in from the 401 answer of GET /api/session', async () => {
    stubFetch([['GET', '/api/session', 401,
      { error: 'sign in first', signIn: 'oidc', loginUrl: '/api/session/oidc/login', provider: 'Keycloak' }]]);
    await expect(session.signInMethod()).resolves.toEqual(
      { signIn: 'oidc', loginUrl: '/api/session/oidc/login', provider: 'Keycloak' });
  });

  it('falls back to the password form otherwise', async () => {
    stubFetch([['GET', '/api/session', 401, { error: 'sign in first', signIn: 'password', loginUrl: '/api/session/login' }]]);
    await expect(session.signInMethod()).resolves.toEqual({ signIn: 'password' });
    stubFetch([['GET', '/api/session', 401, { signIn: 'oidc', loginUrl: 'https://evil.example/' }]]);
    await expect(session.signInMethod()).resolves.toEqual({ signIn: 'password' });
  });
});
