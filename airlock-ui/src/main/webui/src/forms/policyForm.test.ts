import { describe, expect, it } from 'vitest';
import { emptyPolicyForm, parseCallers, validatePolicy } from './policyForm';

const form = (over: Partial<ReturnType<typeof emptyPolicyForm>>) => ({ ...emptyPolicyForm(), ...over });

describe('validatePolicy', () => {
  it('turns a complete form into the UsagePolicy the librarian expects', () => {
    const { errors, value } = validatePolicy(form({
      perSecond: '2', perMinute: '100', burst: '5', perDay: '1000', perMonth: '20000',
      currency: 'eur', costPerCall: '0.01', softLimit: '5', hardLimit: '10',
      allowedCallers: 'planner, group:travel\nops@corp', secrets: [{ name: 'api_key', value: 's3cr3t' }],
    }), 'READ_ONLY');
    expect(errors).toEqual({});
    expect(value!.policy).toEqual({
      rateLimit: { perSecond: 2, perMinute: 100, burst: 5 },
      quota: { perDay: 1000, perMonth: 20000 },
      budget: { currency: 'EUR', costPerCall: 0.01, softLimit: 5, hardLimit: 10 },
      allowedCallers: ['planner', 'group:travel', 'ops@corp'],
    });
    expect(value!.secrets).toEqual({ api_key: 's3cr3t' });
    expect(JSON.stringify(value!.policy)).not.toContain('s3cr3t');
  });

  it('an empty form is no limit at all, allowed for a read-only tool', () => {
    const { errors, value } = validatePolicy(emptyPolicyForm(), 'READ_ONLY');
    expect(errors).toEqual({});
    expect(value!.policy).toEqual({ rateLimit: null, quota: null, budget: null, allowedCallers: null });
  });

  it('a tool that changes data needs a limit or an explicit confirmation', () => {
    expect(validatePolicy(emptyPolicyForm(), 'WRITE_REMOTE').errors.acceptUnlimited).toMatch(/changes data/);
    expect(validatePolicy(form({ acceptUnlimited: true }), 'DESTRUCTIVE').errors).toEqual({});
    expect(validatePolicy(form({ perMinute: '10' }), 'DESTRUCTIVE').errors).toEqual({});
    expect(validatePolicy(form({ riskOverride: 'DESTRUCTIVE' }), 'READ_ONLY').errors.acceptUnlimited).toBeDefined();
  });

  it('names each bad number', () => {
    const { errors, value } = validatePolicy(form({ perSecond: '0', perMinute: '1.5', burst: 'ten', perDay: '-3' }));
    expect(value).toBeUndefined();
    expect(errors.perSecond).toBe('Calls per second must be greater than 0');
    expect(errors.perMinute).toBe('Calls per minute must be a whole number');
    expect(errors.burst).toBe('Burst must be a number');
    expect(errors.perDay).toBe('Calls per day must be at least 1');
  });

  it('catches limits that contradict each other', () => {
    expect(validatePolicy(form({ burst: '5' })).errors.burst).toMatch(/needs a rate/);
    expect(validatePolicy(form({ perDay: '100', perMonth: '50' })).errors.perMonth).toMatch(/smaller than the daily/);
  });

  it('checks the budget as a whole', () => {
    expect(validatePolicy(form({ costPerCall: '1', hardLimit: '10' })).errors.currency).toMatch(/currency/);
    expect(validatePolicy(form({ currency: 'EURO', costPerCall: '1', hardLimit: '10' })).errors.currency).toMatch(/three-letter/);
    expect(validatePolicy(form({ currency: 'EUR', hardLimit: '10' })).errors.costPerCall).toMatch(/cost of one call/);
    expect(validatePolicy(form({ currency: 'EUR', costPerCall: '1' })).errors.hardLimit).toMatch(/soft limit, a hard limit/);
    expect(validatePolicy(form({ currency: 'EUR', costPerCall: '1', softLimit: '20', hardLimit: '10' })).errors.softLimit).toMatch(/must not exceed/);
    expect(validatePolicy(form({ currency: 'EUR', costPerCall: '5', hardLimit: '2' })).errors.hardLimit).toMatch(/below the cost of a single call/);
  });

  it('checks callers and secrets', () => {
    expect(validatePolicy(form({ allowedCallers: 'planner, bad caller!' })).errors.allowedCallers).toMatch(/"caller!" is not a caller identity/);
    expect(validatePolicy(form({ allowedCallers: 'a, a' })).errors.allowedCallers).toMatch(/twice/);
    expect(validatePolicy(form({ secrets: [{ name: '1x', value: 'v' }] })).errors['secret-0']).toMatch(/start with a letter/);
    expect(validatePolicy(form({ secrets: [{ name: 'k', value: '' }] })).errors['secret-0']).toBe('Enter the value of "k"');
    expect(validatePolicy(form({ secrets: [{ name: 'k', value: 'a' }, { name: 'k', value: 'b' }] })).errors['secret-1']).toMatch(/set twice/);
    expect(validatePolicy(form({ secrets: [{ name: '', value: '' }] })).errors).toEqual({});
  });

  it('splits callers on commas, spaces and lines', () => {
    expect(parseCallers(' a,b\n c  d ,, ')).toEqual(['a', 'b', 'c', 'd']);
  });
});
