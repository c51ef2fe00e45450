import { describe, expect, it } from 'vitest';
import { whoOf } from './who';

describe('whoOf', () => {
  it('shows a user once', () => {
    expect(whoOf('admin admin')).toBe('admin');
    expect(whoOf('admin alice')).toBe('alice');
    expect(whoOf('alice')).toBe('alice');
    expect(whoOf('health worker')).toBe('health worker');
    expect(whoOf('admin')).toBe('admin');
    expect(whoOf(null)).toBe('—');
  });
});
