import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PolicyDialog, formOf } from './PolicyDialog';
import { stubFetch } from '../test/fetchStub';
import type { PendingTool } from '../api/types';

const tool: PendingTool = {
  id: 'c-9', risk: 'WRITE_REMOTE', status: 'ACTIVE',
  manifest: { verb: 'CREATE_PET', name: 'createPet', binding: { method: 'POST', auth: { scheme: 'API_KEY_HEADER', secretName: 'api_key' } } },
  policy: { quota: { perDay: 1000, perMonth: 20000 }, allowedCallers: ['planner-a'], secretNames: ['api_key'] },
};

afterEach(() => vi.unstubAllGlobals());

describe('PolicyDialog', () => {
  it('starts from the policy in force', () => {
    expect(formOf(tool.policy)).toMatchObject({ perDay: '1000', perMonth: '20000', allowedCallers: 'planner-a', secrets: [] });
  });

  it('sends the changed policy, keeping the secrets, only after the admin confirms, by keyboard alone', async () => {
    const calls = stubFetch([['PUT', '/api/librarian/tools/pending/c-9/policy', 200, { ...tool }]]);
    const onDone = vi.fn();
    render(<PolicyDialog tool={tool} onClose={() => {}} onDone={onDone} />);
    const user = userEvent.setup();
    const perDay = screen.getByLabelText('Calls per day');
    await user.clear(perDay);
    await user.type(perDay, '3');
    await user.click(screen.getByRole('button', { name: 'Change the policy' }));
    expect(await screen.findByText('Confirm the change, or cancel.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    screen.getByLabelText(/Yes, put this policy in force/).focus();
    await user.keyboard(' ');
    screen.getByRole('button', { name: 'Change the policy' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ policy: { rateLimit: null, quota: { perDay: 3, perMonth: 20000 }, budget: null, allowedCallers: ['planner-a'] } });
  });

  it('names an invalid field and shows the server refusal', async () => {
    stubFetch([['PUT', '/api/librarian/tools/pending/c-9/policy', 409, { status: 409, error: 'the policy of x is already this one; nothing to change' }]]);
    render(<PolicyDialog tool={tool} onClose={() => {}} onDone={() => {}} />);
    const user = userEvent.setup();
    const perMonth = screen.getByLabelText('Calls per month');
    await user.clear(perMonth);
    await user.type(perMonth, '5');
    await user.click(screen.getByLabelText(/Yes, put this policy in force/));
    await user.click(screen.getByRole('button', { name: 'Change the policy' }));
    expect(await screen.findByText('The monthly quota cannot be smaller than the daily quota')).toBeInTheDocument();
    await user.clear(perMonth);
    await user.type(perMonth, '20000');
    await user.click(screen.getByRole('button', { name: 'Change the policy' }));
    expect(await screen.findByText(/The policy change was refused: the policy of x is already this one/)).toBeInTheDocument();
  });
});
