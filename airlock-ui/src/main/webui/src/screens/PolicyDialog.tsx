import { FormEvent, useState } from 'react';
import { pending } from '../api/services';
import type { PendingTool, UsagePolicy } from '../api/types';
import { verbOf } from '../api/candidates';
import { PolicySummary } from '../components/PolicySummary';
import { Dialog, Field, RiskBadge } from '../components/ui';
import { emptyPolicyForm, PolicyErrors, PolicyForm, validatePolicy } from '../forms/policyForm';

const text = (n: number | string | null | undefined) => (n == null ? '' : String(n));

/** The form filled with the policy in force, so an admin changes only what must change. Secrets stay unnamed rows. */
export function formOf(policy: UsagePolicy | null | undefined): PolicyForm {
  const p = policy ?? {};
  return {
    ...emptyPolicyForm(),
    perSecond: text(p.rateLimit?.perSecond), perMinute: text(p.rateLimit?.perMinute), burst: text(p.rateLimit?.burst),
    perDay: text(p.quota?.perDay), perMonth: text(p.quota?.perMonth),
    currency: p.budget?.currency ?? '', costPerCall: text(p.budget?.costPerCall),
    softLimit: text(p.budget?.softLimit), hardLimit: text(p.budget?.hardLimit),
    allowedCallers: (p.allowedCallers ?? []).join(', '),
  };
}

/**
 * Changes the usage policy of an approved or active tool. The librarian records it as a new approval
 * version of the same definition, sealed with its key, and audits it (POLICY_CHANGED, before → after);
 * the capabilities manager enforces it from its next call. Same rules as the approve dialog; the risk is
 * the approved one; secrets are kept unless new ones are entered (their values are never shown).
 */
export function PolicyDialog({ tool, onClose, onDone }: { tool: PendingTool; onClose: () => void; onDone: () => void }) {
  const initial = formOf(tool.policy);
  const [form, setForm] = useState<PolicyForm>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof PolicyForm>(k: K, v: PolicyForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const errors: PolicyErrors = submitted ? validatePolicy(form, tool.risk).errors : {};
  const kept = tool.policy?.secretNames ?? [];
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const { value } = validatePolicy(form, tool.risk);
    if (!value || !confirmed) return;
    setBusy(true);
    setServerError(null);
    try {
      await pending.changePolicy(tool.id, {
        policy: { ...value.policy, ...(Object.keys(value.secrets).length ? { secrets: value.secrets } : {}) },
        ...(value.acceptUnlimited ? { acceptUnlimited: true } : {}),
      });
      setForm(emptyPolicyForm()); // secret values leave the browser's memory with the form
      onDone();
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const input = (key: keyof PolicyForm, label: string, hint?: string) => (
    <Field label={label} htmlFor={`chg-${key}`} error={errors[key]} hint={hint}>
      <input id={`chg-${key}`} inputMode="decimal" value={String(form[key])} aria-invalid={Boolean(errors[key])}
        onChange={(e) => set(key, e.target.value as never)} />
    </Field>
  );

  return (
    <Dialog title={`Change the policy of ${verbOf(tool)}`} onClose={onClose} wide dirty={dirty}>
      <form onSubmit={submit} noValidate className="form policy-form">
        <p className="muted">Risk: <RiskBadge risk={tool.risk} /> The new limits apply from the next call; the calls and spend counted so far stay.</p>
        {tool.policy && (
          <details>
            <summary>Policy in force now</summary>
            <PolicySummary policy={tool.policy} />
          </details>
        )}
        <fieldset>
          <legend>Rate limit</legend>
          <div className="row">
            {input('perSecond', 'Calls per second', 'May be fractional, e.g. 0.5')}
            {input('perMinute', 'Calls per minute')}
            {input('burst', 'Burst', 'Calls allowed at once above the rate')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Quota</legend>
          <div className="row">
            {input('perDay', 'Calls per day')}
            {input('perMonth', 'Calls per month')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Budget</legend>
          <div className="row">
            <Field label="Currency" htmlFor="chg-currency" error={errors.currency} hint="ISO code">
              <input id="chg-currency" value={form.currency} maxLength={3} aria-invalid={Boolean(errors.currency)}
                onChange={(e) => set('currency', e.target.value.toUpperCase())} />
            </Field>
            {input('costPerCall', 'Cost per call')}
            {input('softLimit', 'Soft limit', 'Admins are notified once')}
            {input('hardLimit', 'Hard limit', 'Further calls are denied')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Allowed callers</legend>
          <Field label="Planner identities or groups" htmlFor="chg-allowedCallers" error={errors.allowedCallers}
            hint="Separated by commas or new lines; empty allows every planner.">
            <textarea id="chg-allowedCallers" rows={2} value={form.allowedCallers} aria-invalid={Boolean(errors.allowedCallers)}
              onChange={(e) => set('allowedCallers', e.target.value)} />
          </Field>
        </fieldset>
        <fieldset>
          <legend>Secrets</legend>
          <p className="muted small">
            {kept.length ? <>Kept as approved: {kept.join(', ')}. </> : <>None stored. </>}
            Enter secrets only to replace them all (write-only, stored encrypted).
          </p>
          {form.secrets.map((row, i) => (
            <div className="row secret-row" key={i}>
              <Field label="Name" htmlFor={`chg-secret-name-${i}`} error={errors[`secret-${i}`]}>
                <input id={`chg-secret-name-${i}`} value={row.name} aria-invalid={Boolean(errors[`secret-${i}`])}
                  onChange={(e) => set('secrets', form.secrets.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))} />
              </Field>
              <Field label="Value" htmlFor={`chg-secret-value-${i}`}>
                <input id={`chg-secret-value-${i}`} type="password" autoComplete="new-password" value={row.value}
                  onChange={(e) => set('secrets', form.secrets.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))} />
              </Field>
              <button type="button" className="btn btn-small" aria-label={`remove secret ${i + 1}`}
                onClick={() => set('secrets', form.secrets.filter((_, j) => j !== i))}>Remove</button>
            </div>
          ))}
          <button type="button" className="btn btn-small"
            onClick={() => set('secrets', [...form.secrets, { name: kept[form.secrets.length] ?? '', value: '' }])}>Replace a secret</button>
        </fieldset>
        <fieldset className={submitted && !confirmed ? 'field-invalid' : undefined}>
          <legend>Confirm</legend>
          <label className={`check${errors.acceptUnlimited ? ' field-invalid' : ''}`}>
            <input type="checkbox" checked={form.acceptUnlimited} onChange={(e) => set('acceptUnlimited', e.target.checked)} />
            I accept that this tool may run without any rate limit, quota or budget
          </label>
          {errors.acceptUnlimited && <small className="field-error" role="alert">{errors.acceptUnlimited}</small>}
          <label className="check">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
            Yes, put this policy in force for {verbOf(tool)} now (recorded in the audit log)
          </label>
          {submitted && !confirmed && <small className="field-error" role="alert">Confirm the change, or cancel.</small>}
        </fieldset>
        {Object.keys(errors).length > 0 && <p className="field-error" role="alert">Please correct the highlighted fields.</p>}
        {serverError && <p className="field-error" role="alert">The policy change was refused: {serverError}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Changing…' : 'Change the policy'}</button>
        </div>
      </form>
    </Dialog>
  );
}
