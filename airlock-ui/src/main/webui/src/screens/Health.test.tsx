import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Health } from './Health';
import { renderAs } from '../test/render';
import { stubFetch } from '../test/fetchStub';

// Shapes as the capabilities manager answers them (PluginView.Details, ToolUsage).
const details = {
  toolId: 'ipinfo/get-city', verb: 'GET_CITY', name: 'ip-city', type: 'WRAPPED', status: 'DISABLED',
  statusReason: '3 consecutive probe failures', version: 1,
  policy: { budget: { currency: 'EUR', costPerCall: 0.01, softLimit: 5, hardLimit: 10 }, secretNames: ['key'] },
  health: { consecutiveFailures: 3, consecutiveSuccesses: 0, lastProbeAt: '2026-11-22T05:00:00Z', lastProbeOk: false, lastProbeReason: 'HTTP 500' },
  healthHistory: [
    { at: '2026-11-22T04:58:00Z', ok: true, latencyMs: 80 },
    { at: '2026-11-22T04:59:00Z', ok: false, latencyMs: 120, error: 'HTTP 500' },
    { at: '2026-11-22T05:00:00Z', ok: false, latencyMs: 130, error: 'HTTP 500' },
  ],
  statusHistory: [{ at: '2026-11-22T05:00:00Z', status: 'DISABLED', reason: '3 consecutive probe failures', by: 'health-worker' }],
};
const usage = {
  toolId: 'ipinfo/get-city', period: 'month', calls: 40, succeeded: 38, errors: 2, denied: 1, latencyP50Ms: 85, latencyP95Ms: 140, spend: 0.4,
  budget: { currency: 'EUR', costPerCall: 0.01, softLimit: 5, hardLimit: 10, spentThisMonth: 7.5, remaining: 2.5, softLimitCrossed: true },
  perCaller: [{ caller: 'planner', calls: 40, succeeded: 38, errors: 2, denied: 1, spend: 0.4 }],
  series: [{ at: '2026-11-21T00:00:00Z', calls: 20, succeeded: 20, errors: 0, denied: 0, latencyP95Ms: 120 }, { at: '2026-11-22T00:00:00Z', calls: 20, succeeded: 18, errors: 2, denied: 1, latencyP95Ms: 160 }],
};

afterEach(() => vi.unstubAllGlobals());

describe('Health', () => {
  it('shows status, history, usage charts and spend against budget', async () => {
    stubFetch([['GET', '/api/capabilities/plugins/ipinfo%2Fget-city', 200, details], ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city/usage', 200, usage]]);
    renderAs('viewer', <Health pluginId="ipinfo/get-city" />);
    expect(await screen.findByRole('heading', { name: 'GET_CITY' })).toBeInTheDocument();
    expect(screen.getAllByText('3 consecutive probe failures').length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: 'health history' }).querySelectorAll('rect.fail')).toHaveLength(2);
    expect(await screen.findByRole('img', { name: 'Error rate' })).toBeInTheDocument();
    expect(screen.getByText(/7\.50 EUR of 10\.00 EUR/)).toBeInTheDocument();
    expect(screen.getByText('planner')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Probe now|Enable|Disable/ })).toBeNull();
  });

  it('lets an admin enable a disabled plugin and probe it', async () => {
    const calls = stubFetch([
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city', 200, details],
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city/usage', 200, usage],
      ['POST', '/api/capabilities/plugins/ipinfo%2Fget-city/enable', 200, { status: 'ENABLED' }],
      ['POST', '/api/capabilities/plugins/ipinfo%2Fget-city/probe', 200, { ok: true }],
    ]);
    renderAs('admin', <Health pluginId="ipinfo/get-city" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enable' }));
    await user.click(screen.getByRole('button', { name: 'Probe now' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/capabilities/plugins/ipinfo%2Fget-city/enable', '/api/capabilities/plugins/ipinfo%2Fget-city/probe']));
  });

  it('disables only after a confirmation with a reason, and says it did', async () => {
    const enabled = { ...details, status: 'ENABLED', statusReason: null };
    const calls = stubFetch([
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city', 200, enabled],
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city/usage', 200, usage],
      ['POST', '/api/capabilities/plugins/ipinfo%2Fget-city/disable', 200, { status: 'DISABLED' }],
    ]);
    renderAs('admin', <Health pluginId="ipinfo/get-city" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable…' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable GET_CITY' });
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    expect(dialog).toHaveTextContent('Say why the tool is disabled');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Disable…' }));
    await user.type(screen.getByLabelText('Reason (required)'), 'vendor outage, ticket 4711');
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText(/Disabled: the tool is out of service/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')[0].body).toEqual({ reason: 'vendor outage, ticket 4711' });
  });

  it('lets an admin change the health thresholds of a plugin, validated before sending', async () => {
    const withThresholds = { ...details, thresholds: { failuresToDisable: 3, successesToEnable: 2, errorRateThreshold: 0.5, errorRateWindow: 20, errorRateMinSamples: 5, intervalSeconds: 60 } };
    const calls = stubFetch([
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city', 200, withThresholds],
      ['GET', '/api/capabilities/plugins/ipinfo%2Fget-city/usage', 200, usage],
      ['PUT', '/api/capabilities/plugins/ipinfo%2Fget-city/health-thresholds', 200, withThresholds.thresholds],
    ]);
    renderAs('admin', <Health pluginId="ipinfo/get-city" />);
    const user = userEvent.setup();
    const failures = await screen.findByLabelText('Failed probes before disabling');
    expect(failures).toHaveValue('3');
    await user.clear(failures);
    await user.type(failures, 'zero');
    await user.clear(screen.getByLabelText('Error rate that disables (0–1)'));
    await user.type(screen.getByLabelText('Error rate that disables (0–1)'), '1.5');
    await user.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(screen.getByText('Failed probes before disabling: a whole number from 1')).toBeInTheDocument();
    expect(screen.getByText('Error rate that disables (0–1): a fraction above 0 and at most 1, e.g. 0.5')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.clear(failures);
    await user.type(failures, '5');
    await user.clear(screen.getByLabelText('Error rate that disables (0–1)'));
    await user.type(screen.getByLabelText('Error rate that disables (0–1)'), '0.25');
    await user.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(await screen.findByText(/Health thresholds saved/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')[0].body).toEqual({ failuresToDisable: 5, successesToEnable: 2, errorRateThreshold: 0.25, errorRateWindow: 20, intervalSeconds: 60 });
  });

  it('pages the plugin list and shows an empty state', async () => {
    stubFetch([['GET', '/api/capabilities/plugins', 200, []], ['GET', '/api/capabilities/usage', 200, { calls: 0 }]]);
    renderAs('admin', <Health />);
    expect(await screen.findByText(/No plugins registered yet/)).toBeInTheDocument();
  });
});
