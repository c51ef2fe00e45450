import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SourcePicker } from './SourcePicker';
import { stubFetch } from '../test/fetchStub';

afterEach(() => vi.unstubAllGlobals());

const source = (n: number) => ({ id: `s-${n}`, name: `shop ${String(n).padStart(3, '0')}`, type: 'openapi', url: `https://x/${n}` });

describe('SourcePicker', () => {
  it('searches every source on the server as the admin types and picks one by keyboard', async () => {
    const calls = stubFetch([
      ['GET', '/api/librarian/tools/sources', 200, { items: [source(417), source(418)], page: 0, size: 20, total: 2 }],
    ]);
    const onChange = vi.fn();
    render(<><label htmlFor="src">Source</label><SourcePicker id="src" value="" onChange={onChange} /></>);
    expect(calls).toHaveLength(0); // nothing is loaded until the field is used
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Source' }), 'shop 41');
    await screen.findByRole('option', { name: 'shop 417' });
    const searched = calls.filter((c) => c.url.includes('q=shop+41') || c.url.includes('q=shop%2041'));
    expect(searched.length).toBeGreaterThan(0);
    expect(searched[searched.length - 1].url).toContain('size=20');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith('s-418');
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveValue('shop 418');
  });

  it('says how many more match, shows the chosen source by name and clears to all sources', async () => {
    stubFetch([
      ['GET', '/api/librarian/tools/sources/s-7', 200, source(7)],
      ['GET', '/api/librarian/tools/sources', 200, { items: [source(1), source(2)], page: 0, size: 20, total: 500 }],
    ]);
    const onChange = vi.fn();
    render(<><label htmlFor="src">Source</label><SourcePicker id="src" value="s-7" onChange={onChange} /></>);
    const box = screen.getByRole('combobox', { name: 'Source' });
    await waitFor(() => expect(box).toHaveValue('shop 007'));
    const user = userEvent.setup();
    await user.clear(box);
    expect(onChange).toHaveBeenCalledWith('');
    expect(await screen.findByText('498 more match: type to narrow.')).toBeInTheDocument();
  });
});
