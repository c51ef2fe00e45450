import type { PendingTool } from './types';

/** The candidate's verb, from the queue line or, on the detail, from its manifest. */
export function verbOf(t: PendingTool): string {
  return t.verb ?? t.manifest?.verb ?? t.operationKey ?? t.id;
}

/** "changed" when the candidate differs from an approved revision of the same operation. */
export function changeOf(t: PendingTool): 'new' | 'changed' {
  return t.changed || (t.diff != null && t.approvedRevision != null) ? 'changed' : 'new';
}

/** The capability gaps the candidate would fill, by verb. */
export function gapsOf(t: PendingTool): string[] {
  return (t.gaps ?? []).map((g) => (typeof g === 'string' ? g : g.actionVerb));
}
