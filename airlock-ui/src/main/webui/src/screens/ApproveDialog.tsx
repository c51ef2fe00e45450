import { FormEvent, useEffect, useState } from 'react';
import { BulkOutcome, pending, PendingFilter } from '../api/services';
import type { PendingTool, Risk } from '../api/types';
import { RISKS } from '../api/types';
import { refusalOf, replacementOf, verbOf } from '../api/candidates';
import { Replacement } from '../components/Replacement';
import { Dialog, Field, RiskBadge } from '../components/ui';
import { emptyPolicyForm, PolicyErrors, PolicyForm, validatePolicy } from '../forms/policyForm';

/** The secret the tool's auth binding needs, to pre-name a secret row (its value is never pre-filled). */
export function secretNamesOf(tool: PendingTool): string[] {
  const auth = tool.manifest?.binding?.auth;
  return auth?.secretName && auth.scheme !== 'NONE' ? [auth.secretName] : [];
}

function failuresOf(outcomes: BulkOutcome[] | undefined, tools: PendingTool[]): string[] {
  const verb = (id: string) => (tools.find((t) => t.id === id) ? verbOf(tools.find((t) => t.id === id)!) : id);
  return (outcomes ?? []).filter((o) => !o.done).map((o) => `${verb(o.id)}: ${o.error ?? o.status ?? 'refused'}`);
}

/** The approve form as kept in sessionStorage (this tab only): everything but the secrets' values. */
function saveDraft(key: string, form: PolicyForm) {
  try {
    const kept = { ...form, secrets: form.secrets.map((s) => ({ name: s.name, value: '' })) };
    if (JSON.stringify(kept) === JSON.stringify({ ...emptyPolicyForm(), secrets: kept.secrets })) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, JSON.stringify(kept));
  } catch { /* storage off: the draft is simply not kept */ }
}

function restoreDraft(key: string): PolicyForm | null {
  try {
    const text = window.sessionStorage.getItem(key);
    return text ? { ...emptyPolicyForm(), ...(JSON.parse(text) as PolicyForm) } : null;
  } catch {
    return null;
  }
}

function forgetDraft(key: string) {
  try { window.sessionStorage.removeItem(key); } catch { /* nothing kept */ }
}

function isDirty(form: PolicyForm): boolean {
  const empty = emptyPolicyForm();
  return (Object.keys(empty) as (keyof PolicyForm)[]).some((k) => k !== 'secrets' && JSON.stringify(form[k]) !== JSON.stringify(empty[k]))
    || form.secrets.some((s) => s.value !== '');
}

function highestRisk(tools: PendingTool[]): Risk | undefined {
  let best = -1;
  for (const t of tools) best = Math.max(best, t.risk ? RISKS.indexOf(t.risk) : -1);
  return best >= 0 ? RISKS[best] : undefined;
}

/**
 * A decision on every tool a filter of the queue matches: the server decides them only while the filter
 * matches exactly {@code count} (what the admin saw and confirmed).
 */
export interface Matching { filter: PendingFilter; count: number; description: string }

function ConfirmMatching({ matching, verb, confirmed, onChange, invalid }: {
  matching: Matching; verb: string; confirmed: boolean; onChange: (v: boolean) => void; invalid: boolean;
}) {
  return (
    <fieldset className={invalid ? 'field-invalid' : undefined}>
      <legend>{verb} all {matching.count} tools that match</legend>
      <p className="muted">Filter: {matching.description}</p>
      <label className="check">
        <input type="checkbox" checked={confirmed} onChange={(e) => onChange(e.target.checked)} />
        Yes, {verb.toLowerCase()} all {matching.count} matching tools
      </label>
      {invalid && <small className="field-error" role="alert">Confirm that all {matching.count} matching tools are meant.</small>}
    </fieldset>
  );
}

export function ApproveDialog({ tools, matching, onClose, onDone }: {
  tools: PendingTool[]; matching?: Matching; onClose: () => void; onDone: (approved: number, failures: string[]) => void;
}) {
  const single = tools.length === 1 ? tools[0] : null;
  const draftKey = `toolsmith.approve-draft.${matching ? JSON.stringify(matching.filter) : tools.map((t) => t.id).join(',')}`;
  const [form, setForm] = useState<PolicyForm>(() => restoreDraft(draftKey) ?? ({
    ...emptyPolicyForm(),
    secrets: single ? secretNamesOf(single).map((name) => ({ name, value: '' })) : [],
  }));
  // A filled policy survives a closed dialog or an expired session (reopen it after signing in again);
  // secret values never leave memory, only their names are kept.
  useEffect(() => { saveDraft(draftKey, form); }, [draftKey, form]);
  const [submitted, setSubmitted] = useState(false);
  // A replacement of a tool in service is approved only with the admin's explicit confirmation (409 otherwise).
  const replacing = single ? replacementOf(single) : undefined;
  const refusal = single ? refusalOf(single) : undefined;
  const [confirmed, setConfirmed] = useState(false);
  const [matchConfirmed, setMatchConfirmed] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const risk = matching ? (matching.filter.risk as Risk | undefined) ?? 'DESTRUCTIVE' : highestRisk(tools);
  const set = <K extends keyof PolicyForm>(k: K, v: PolicyForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  // After the first attempt, messages follow every keystroke, so a corrected field clears at once.
  const errors: PolicyErrors = submitted ? validatePolicy(form, risk).errors : {};

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const { value } = validatePolicy(form, risk);
    if (!value || (replacing && !confirmed) || (matching && !matchConfirmed)) return;
    setBusy(true);
    setServerError(null);
    const request = {
      policy: { ...value.policy, ...(Object.keys(value.secrets).length ? { secrets: value.secrets } : {}) },
      ...(value.riskOverride ? { riskOverride: value.riskOverride } : {}),
      ...(value.acceptUnlimited ? { acceptUnlimited: true } : {}),
      ...(replacing ? { confirmReplace: replacing.toolId } : {}),
    };
    try {
      let failures: string[] = [];
      let total = tools.length;
      if (matching) {
        const result = await pending.approveMatching(matching.filter, matching.count, request);
        failures = failuresOf(result.outcomes, tools);
        total = result.matched;
      } else if (single) await pending.approve(single.id, request);
      else failures = failuresOf(await pending.approveMany(tools.map((t) => t.id), request), tools);
      // Secret values leave the browser's memory with the form.
      setSubmitted(false);
      setForm(emptyPolicyForm());
      forgetDraft(draftKey);
      onDone(total - failures.length, failures);
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const input = (key: keyof PolicyForm, label: string, hint?: string, placeholder?: string) => (
    <Field label={label} htmlFor={`pol-${key}`} error={errors[key]} hint={hint}>
      <input id={`pol-${key}`} inputMode="decimal" value={String(form[key])} placeholder={placeholder}
        aria-invalid={Boolean(errors[key])} onChange={(e) => set(key, e.target.value as never)} />
    </Field>
  );

  return (
    <Dialog title={matching ? `Approve ${matching.count} matching tools` : single ? `Approve ${verbOf(single)}` : `Approve ${tools.length} tools`} onClose={onClose} wide dirty={isDirty(form)}>
      <form onSubmit={submit} noValidate className="form policy-form">
        {matching && <ConfirmMatching matching={matching} verb="Approve" confirmed={matchConfirmed} onChange={setMatchConfirmed} invalid={submitted && !matchConfirmed} />}
        {refusal && <p className="field-error" role="alert">Cannot be approved: {refusal.message}.</p>}
        {replacing && (
          <fieldset className={submitted && !confirmed ? 'field-invalid' : undefined}>
            <legend>Replaces {replacing.toolId} from {replacing.source}</legend>
            <Replacement collision={replacing} />
            <label className="check">
              <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
              I have reviewed the differences: replace {replacing.toolId} from {replacing.source} with this tool, under the policy below
            </label>
            {submitted && !confirmed && <small className="field-error" role="alert">Confirm the replacement, or cancel and reject the tool.</small>}
          </fieldset>
        )}
        <p className="muted">
          {single ? <>Risk: <RiskBadge risk={single.risk} /> </> : <>Highest risk among them: <RiskBadge risk={risk} /> </>}
          The tool runs only within the limits below; leave a limit empty for none.
        </p>
        <fieldset>
          <legend>Rate limit</legend>
          <div className="row">
            {input('perSecond', 'Calls per second', 'May be fractional, e.g. 0.5', 'e.g. 5')}
            {input('perMinute', 'Calls per minute', undefined, 'e.g. 100')}
            {input('burst', 'Burst', 'Calls allowed at once above the rate', 'e.g. 10')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Quota</legend>
          <div className="row">
            {input('perDay', 'Calls per day', undefined, 'e.g. 1000')}
            {input('perMonth', 'Calls per month', undefined, 'e.g. 20000')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Budget</legend>
          <div className="row">
            <Field label="Currency" htmlFor="pol-currency" error={errors.currency} hint="ISO code">
              <input id="pol-currency" value={form.currency} maxLength={3} placeholder="EUR" aria-invalid={Boolean(errors.currency)}
                onChange={(e) => set('currency', e.target.value.toUpperCase())} />
            </Field>
            {input('costPerCall', 'Cost per call', undefined, 'e.g. 0.002')}
            {input('softLimit', 'Soft limit', 'Admins are notified once', 'e.g. 50')}
            {input('hardLimit', 'Hard limit', 'Further calls are denied', 'e.g. 100')}
          </div>
        </fieldset>
        <fieldset>
          <legend>Allowed callers</legend>
          <Field label="Planner identities or groups" htmlFor="pol-allowedCallers" error={errors.allowedCallers}
            hint="Separated by commas or new lines; empty allows every planner. Others never see the tool in search.">
            <textarea id="pol-allowedCallers" rows={2} value={form.allowedCallers} aria-invalid={Boolean(errors.allowedCallers)}
              onChange={(e) => set('allowedCallers', e.target.value)} placeholder="planner, group:travel" />
          </Field>
        </fieldset>
        <fieldset>
          <legend>Secrets</legend>
          <p className="muted small">Write-only: stored encrypted, injected at call time, never shown again.</p>
          {form.secrets.map((row, i) => (
            <div className="row secret-row" key={i}>
              <Field label="Name" htmlFor={`pol-secret-name-${i}`} error={errors[`secret-${i}`]}>
                <input id={`pol-secret-name-${i}`} value={row.name} aria-invalid={Boolean(errors[`secret-${i}`])}
                  onChange={(e) => set('secrets', form.secrets.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))} />
              </Field>
              <Field label="Value" htmlFor={`pol-secret-value-${i}`}>
                <input id={`pol-secret-value-${i}`} type="password" autoComplete="new-password" value={row.value}
                  onChange={(e) => set('secrets', form.secrets.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))} />
              </Field>
              <button type="button" className="btn btn-small" aria-label={`remove secret ${i + 1}`}
                onClick={() => set('secrets', form.secrets.filter((_, j) => j !== i))}>Remove</button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => set('secrets', [...form.secrets, { name: '', value: '' }])}>Add secret</button>
        </fieldset>
        <fieldset>
          <legend>Risk</legend>
          <Field label="Override the detected risk" htmlFor="pol-riskOverride" hint="Only when the detected risk is wrong, e.g. a POST that only reads">
            <select id="pol-riskOverride" value={form.riskOverride} onChange={(e) => set('riskOverride', e.target.value as PolicyForm['riskOverride'])}>
              <option value="">keep {risk ? risk.toLowerCase().replace('_', ' ') : 'as detected'}</option>
              {RISKS.map((r) => <option key={r} value={r}>{r.toLowerCase().replace('_', ' ')}</option>)}
            </select>
          </Field>
          <label className={`check${errors.acceptUnlimited ? ' field-invalid' : ''}`}>
            <input type="checkbox" checked={form.acceptUnlimited} onChange={(e) => set('acceptUnlimited', e.target.checked)} />
            I accept that this tool may run without any rate limit, quota or budget
          </label>
          {errors.acceptUnlimited && <small className="field-error" role="alert">{errors.acceptUnlimited}</small>}
        </fieldset>
        {Object.keys(errors).length > 0 && <p className="field-error" role="alert">Please correct the highlighted fields.</p>}
        {serverError && <p className="field-error" role="alert">The approval was refused: {serverError}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || Boolean(refusal)}>{busy ? 'Approving…' : replacing ? 'Replace and approve with this policy' : 'Approve with this policy'}</button>
        </div>
      </form>
    </Dialog>
  );
}

export function RejectDialog({ tools, matching, onClose, onDone }: {
  tools: PendingTool[]; matching?: Matching; onClose: () => void; onDone: (rejected: number, failures: string[]) => void;
}) {
  const [reason, setReason] = useState('');
  const [matchConfirmed, setMatchConfirmed] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const r = reason.trim();
    if (r.length < 3) { setError('Say why the tool is rejected (at least 3 characters): the reason goes to the audit log.'); return; }
    if (r.length > 2000) { setError('At most 2000 characters.'); return; }
    setError(null);
    if (matching && !matchConfirmed) return;
    setBusy(true);
    setError(null);
    try {
      let failures: string[] = [];
      let total = tools.length;
      if (matching) {
        const result = await pending.rejectMatching(matching.filter, matching.count, r);
        failures = failuresOf(result.outcomes, tools);
        total = result.matched;
      } else if (tools.length === 1) await pending.reject(tools[0].id, r);
      else failures = failuresOf(await pending.rejectMany(tools.map((t) => t.id), r), tools);
      onDone(total - failures.length, failures);
    } catch (err) {
      setError(`The rejection was refused: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={matching ? `Reject ${matching.count} matching tools` : tools.length === 1 ? `Reject ${verbOf(tools[0])}` : `Reject ${tools.length} tools`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        {matching && <ConfirmMatching matching={matching} verb="Reject" confirmed={matchConfirmed} onChange={setMatchConfirmed} invalid={submitted && !matchConfirmed} />}
        <Field label="Reason (required)" htmlFor="reject-reason" error={error ?? undefined}>
          <textarea id="reject-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={Boolean(error)} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-danger" disabled={busy}>{busy ? 'Rejecting…' : 'Reject'}</button>
        </div>
      </form>
    </Dialog>
  );
}
