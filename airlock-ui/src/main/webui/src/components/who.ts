/**
 * A person or service as a "Who"/"By" cell shows it. The capabilities manager records an admin's status
 * change as "admin <user>", so a user named admin read "admin admin": the role is implied by the action
 * (only admins change a status), so the user is shown once, by name.
 */
export function whoOf(by: unknown): string {
  if (by == null || by === '') return '—';
  const text = String(by).trim();
  const admin = /^admin\s+(\S.*)$/.exec(text);
  return admin ? admin[1] : text;
}
