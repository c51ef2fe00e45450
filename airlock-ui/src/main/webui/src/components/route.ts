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
