import type { Collision, PendingTool } from './types';

/** The candidate's verb, from the queue line or, on the detail, from its manifest. */
export function verbOf(t: PendingTool): string {
  return t.verb ?? t.manifest?.verb ?? t.operationKey ?? t.id;
}

/**
 * "replaces" when it would take the id of a tool in service from another source, "changed" when it differs
 * from an approved revision of the same operation, else "new".
 */
export function changeOf(t: PendingTool): 'new' | 'changed' | 'replaces' {
  if (replacementOf(t) || t.collision === 'REPLACES') return 'replaces';
  return t.changed || (t.diff != null && t.approvedRevision != null) ? 'changed' : 'new';
}

/** The tool in service this candidate would replace (its approval needs an explicit confirmation). */
export function replacementOf(t: PendingTool): Collision | undefined {
  return (t.collisions ?? []).find((c) => c.kind === 'REPLACES');
}

/** Why the candidate cannot be approved at all (its verb or id belongs to another tool), if so. */
export function refusalOf(t: PendingTool): Collision | undefined {
  return (t.collisions ?? []).find((c) => c.kind === 'REFUSED');
}

/** The capability gaps the candidate would fill, by verb. */
export function gapsOf(t: PendingTool): string[] {
  return (t.gaps ?? []).map((g) => (typeof g === 'string' ? g : g.actionVerb));
}
