import type { UsagePolicy } from '../api/types';

/** A policy as a reviewer reads it; secrets by name only (their values are never returned). */
export function PolicySummary({ policy }: { policy: UsagePolicy & { secretNames?: string[] } }) {
  const rows: Array<[string, string]> = [];
  const r = policy.rateLimit;
  if (r) rows.push(['Rate limit', [r.perSecond != null && `${r.perSecond}/s`, r.perMinute != null && `${r.perMinute}/min`, r.burst != null && `burst ${r.burst}`].filter(Boolean).join(', ')]);
  const q = policy.quota;
  if (q) rows.push(['Quota', [q.perDay != null && `${q.perDay}/day`, q.perMonth != null && `${q.perMonth}/month`].filter(Boolean).join(', ')]);
  const b = policy.budget;
  if (b) rows.push(['Budget', `${b.costPerCall} ${b.currency} per call${b.softLimit != null ? `, soft limit ${b.softLimit}` : ''}${b.hardLimit != null ? `, hard limit ${b.hardLimit}` : ''}`]);
  rows.push(['Allowed callers', policy.allowedCallers?.length ? policy.allowedCallers.join(', ') : 'every planner']);
  if (policy.secretNames?.length) rows.push(['Secrets', policy.secretNames.join(', ')]);
  return (
    <table className="table"><tbody>{rows.map(([k, v]) => <tr key={k}><th>{k}</th><td>{v || '—'}</td></tr>)}</tbody></table>
  );
}
