// The approval form's fields as typed by the reviewer, and their validation into a UsagePolicy.
// Kept free of React so the rules are tested directly.
import type { Risk, UsagePolicy } from '../api/types';

export interface SecretRow { name: string; value: string }

export interface PolicyForm {
  perSecond: string;
  perMinute: string;
  burst: string;
  perDay: string;
  perMonth: string;
  currency: string;
  costPerCall: string;
  softLimit: string;
  hardLimit: string;
  allowedCallers: string;
  secrets: SecretRow[];
  riskOverride: '' | Risk;
  acceptUnlimited: boolean;
}

export const emptyPolicyForm = (): PolicyForm => ({
  perSecond: '', perMinute: '', burst: '', perDay: '', perMonth: '',
  currency: '', costPerCall: '', softLimit: '', hardLimit: '',
  allowedCallers: '', secrets: [], riskOverride: '', acceptUnlimited: false,
});

export type PolicyErrors = Partial<Record<keyof PolicyForm | `secret-${number}`, string>>;

export interface ValidPolicy {
  policy: UsagePolicy;
  secrets: Record<string, string>;
  riskOverride: Risk | null;
  acceptUnlimited: boolean;
}

const CALLER = /^[A-Za-z0-9._:@/*-]{1,200}$/;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

function parseNumber(raw: string, field: string, opts: { integer?: boolean; min?: number; exclusiveMin?: boolean }): number | string | null {
  const v = raw.trim();
  if (!v) return null;
  if (!/^-?\d+(\.\d+)?$/.test(v)) return `${field} must be a number`;
  const n = Number(v);
  if (opts.integer && !Number.isInteger(n)) return `${field} must be a whole number`;
  if (opts.min !== undefined) {
    if (opts.exclusiveMin ? n <= opts.min : n < opts.min) {
      return `${field} must be ${opts.exclusiveMin ? 'greater than' : 'at least'} ${opts.min}`;
    }
  }
  return n;
}

/** Splits the allowed callers box on commas, spaces and new lines. */
export function parseCallers(raw: string): string[] {
  return raw.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

/**
 * Validates the form. Returns field errors (empty when valid) and, when valid, the policy to send.
 * `riskOf` is the tool's risk: changing tools without any limit must be confirmed explicitly.
 */
export function validatePolicy(form: PolicyForm, riskOf?: Risk): { errors: PolicyErrors; value?: ValidPolicy } {
  const errors: PolicyErrors = {};
  const num = (key: keyof PolicyForm, label: string, opts: { integer?: boolean; min?: number; exclusiveMin?: boolean }) => {
    const r = parseNumber(String(form[key]), label, opts);
    if (typeof r === 'string') { errors[key] = r; return null; }
    return r;
  };

  const perSecond = num('perSecond', 'Calls per second', { min: 0, exclusiveMin: true });
  const perMinute = num('perMinute', 'Calls per minute', { integer: true, min: 1 });
  const burst = num('burst', 'Burst', { integer: true, min: 1 });
  if (burst !== null && perSecond === null && perMinute === null && !errors.perSecond && !errors.perMinute) {
    errors.burst = 'A burst needs a rate: set calls per second or per minute';
  }

  const perDay = num('perDay', 'Calls per day', { integer: true, min: 1 });
  const perMonth = num('perMonth', 'Calls per month', { integer: true, min: 1 });
  if (perDay !== null && perMonth !== null && perMonth < perDay) {
    errors.perMonth = 'The monthly quota cannot be smaller than the daily quota';
  }

  const currency = form.currency.trim().toUpperCase();
  const costPerCall = num('costPerCall', 'Cost per call', { min: 0 });
  const softLimit = num('softLimit', 'Soft limit', { min: 0 });
  const hardLimit = num('hardLimit', 'Hard limit', { min: 0 });
  const anyBudget = currency || form.costPerCall.trim() || form.softLimit.trim() || form.hardLimit.trim();
  if (anyBudget) {
    if (!currency) errors.currency = 'Choose the budget currency (ISO code such as EUR or USD)';
    else if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'Currency must be a three-letter ISO code such as EUR';
    if (!form.costPerCall.trim() && !errors.costPerCall) errors.costPerCall = 'A budget needs the cost of one call';
    if (softLimit === null && hardLimit === null && !errors.softLimit && !errors.hardLimit) {
      errors.hardLimit = 'Set a soft limit, a hard limit or both';
    }
    if (softLimit !== null && hardLimit !== null && softLimit > hardLimit) {
      errors.softLimit = 'The soft limit must not exceed the hard limit';
    }
    if (costPerCall !== null && hardLimit !== null && costPerCall > hardLimit && !errors.hardLimit) {
      errors.hardLimit = 'The hard limit is below the cost of a single call';
    }
  }

  const callers = parseCallers(form.allowedCallers);
  const badCaller = callers.find((c) => !CALLER.test(c));
  if (badCaller) errors.allowedCallers = `"${badCaller}" is not a caller identity (letters, digits and . _ : @ / - *)`;
  else if (new Set(callers).size !== callers.length) errors.allowedCallers = 'A caller is listed twice';

  const seen = new Set<string>();
  const secrets: Record<string, string> = {};
  form.secrets.forEach((row, i) => {
    const name = row.name.trim();
    if (!name && !row.value) return;
    if (!SECRET_NAME.test(name)) errors[`secret-${i}`] = 'Secret names start with a letter and use letters, digits, _ . -';
    else if (seen.has(name)) errors[`secret-${i}`] = `Secret "${name}" is set twice`;
    else if (!row.value) errors[`secret-${i}`] = `Enter the value of "${name}"`;
    seen.add(name);
    secrets[name] = row.value;
  });

  const effectiveRisk = form.riskOverride || riskOf;
  const unlimited = perSecond === null && perMinute === null && perDay === null && perMonth === null && !anyBudget;
  if (unlimited && effectiveRisk && effectiveRisk !== 'READ_ONLY' && !form.acceptUnlimited) {
    errors.acceptUnlimited = 'This tool changes data: set a rate limit, quota or budget, or confirm that it may run without limits';
  }

  if (Object.keys(errors).length > 0) return { errors };
  const policy: UsagePolicy = {
    rateLimit: perSecond !== null || perMinute !== null ? { perSecond, perMinute, burst } : null,
    quota: perDay !== null || perMonth !== null ? { perDay, perMonth } : null,
    budget: anyBudget ? { currency, costPerCall: costPerCall ?? 0, softLimit, hardLimit } : null,
    allowedCallers: callers.length ? callers : null,
  };
  return { errors, value: { policy, secrets, riskOverride: form.riskOverride || null, acceptUnlimited: form.acceptUnlimited } };
}
