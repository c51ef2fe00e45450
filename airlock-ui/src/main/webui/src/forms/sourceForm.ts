import type { SourceInput } from '../api/services';
import type { SourceType, ToolSource } from '../api/types';
import { SOURCE_TYPES } from '../api/types';

export interface SourceForm {
  name: string;
  type: SourceType;
  url: string;
  branch: string;
  path: string;
  intervalMinutes: string;
  suspendOnChange: boolean;
}

export type SourceErrors = Partial<Record<keyof SourceForm, string>>;

export const emptySourceForm = (): SourceForm => ({
  name: '', type: 'openapi', url: '', branch: 'main', path: '', intervalMinutes: '60', suspendOnChange: false,
});

export function sourceFormOf(s: ToolSource): SourceForm {
  return {
    name: s.name ?? '', type: s.type, url: s.url ?? '', branch: s.branch ?? '', path: s.path ?? '',
    intervalMinutes: s.intervalSeconds != null ? String(Math.max(1, Math.round(s.intervalSeconds / 60))) : '60',
    suspendOnChange: Boolean(s.suspendOnChange),
  };
}

function isUrl(value: string, schemes: string[]): boolean {
  try {
    const u = new URL(value);
    return schemes.includes(u.protocol) && (u.protocol === 'file:' || Boolean(u.hostname));
  } catch {
    return false;
  }
}

export function validateSource(form: SourceForm): { errors: SourceErrors; value?: SourceInput } {
  const errors: SourceErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'Give the source a name';
  else if (name.length > 100) errors.name = 'At most 100 characters';
  if (!SOURCE_TYPES.includes(form.type)) errors.type = 'Choose a type';
  const url = form.url.trim();
  if (!url) errors.url = 'Enter the address of the source';
  else if (form.type === 'git') {
    if (!isUrl(url, ['https:', 'http:', 'file:', 'ssh:', 'git:'])) errors.url = 'A git URL: https://…, ssh://…, git://… or file:///…';
  } else if (!isUrl(url, ['https:', 'http:'])) {
    errors.url = 'An http:// or https:// URL of the document';
  }
  if (form.type === 'git' && !form.branch.trim()) errors.branch = 'Which branch to read';
  const interval = form.intervalMinutes.trim();
  const minutes = Number(interval);
  if (!/^\d+$/.test(interval)) errors.intervalMinutes = 'Whole minutes between scans';
  else if (minutes < 1 || minutes > 10080) errors.intervalMinutes = 'Between 1 minute and 7 days (10080)';
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    value: {
      name, type: form.type, url, intervalSeconds: minutes * 60, suspendOnChange: form.suspendOnChange,
      ...(form.type === 'git' ? { branch: form.branch.trim(), path: form.path.trim() || undefined } : {}),
    },
  };
}
