import { useEffect, useState } from 'react';

/** Hash routes (#/review/abc): deep links work without any server-side routing. */
export function useHashRoute(): string[] {
  const read = () => (window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'review').split('/').map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const on = () => setParts(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parts;
}

export function go(path: string) {
  window.location.hash = `#/${path}`;
}

export function href(path: string) {
  return `#/${path}`;
}

/** The query part of the hash route (#/review?risk=DESTRUCTIVE&page=2): a list's filters, sort and page. */
function readHashQuery(): URLSearchParams {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}

/**
 * A list's state kept in the URL, so a filtered, sorted page can be shared, reloaded, and survives an
 * action taken on it. Values equal to their default are left out of the URL.
 */
export function useHashQuery<T extends Record<string, string>>(defaults: T): [T, (changes: Partial<T>) => void] {
  const read = (): T => {
    const q = readHashQuery();
    const out = { ...defaults };
    for (const key of Object.keys(defaults) as (keyof T & string)[]) {
      const v = q.get(key);
      if (v !== null) out[key] = v as T[typeof key];
    }
    return out;
  };
  const [state, setState] = useState<T>(read);
  useEffect(() => {
    const on = () => setState(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const update = (changes: Partial<T>) => {
    const next = { ...read(), ...changes };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v !== defaults[k]) q.set(k, v);
    const path = window.location.hash.replace(/^#\/?/, '').split('?')[0];
    const s = q.toString();
    window.location.hash = `#/${path}${s ? `?${s}` : ''}`;
    setState(next);
  };
  return [state, update];
}

const FLASH = 'toolsmith.flash';

/** A success message for the next screen (a rejection that returns to the queue says what it did there). */
export function flash(message: string) {
  try { window.sessionStorage.setItem(FLASH, message); } catch { /* storage off: no message */ }
}

/** Takes the message left for this screen, once. */
export function takeFlash(): string | null {
  try {
    const message = window.sessionStorage.getItem(FLASH);
    window.sessionStorage.removeItem(FLASH);
    return message;
  } catch {
    return null;
  }
}
