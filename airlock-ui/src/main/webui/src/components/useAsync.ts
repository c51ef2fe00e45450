import { useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data?: T; error?: undefined }
  | { status: 'error'; data?: T; error: Error }
  | { status: 'ready'; data: T; error?: undefined };

export type AsyncResult<T> = AsyncState<T> & {
  /** Loads again, showing "Refreshing…" over the last data. */
  reload: () => void;
  /** Loads again quietly (for polling): the screen changes only when the answer does. */
  refresh: () => void;
};

/** Runs a load whenever its dependencies change; keeps the last data while reloading. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncResult<T> {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const quiet = useRef(false);
  useEffect(() => {
    const call = ++latest.current;
    if (!quiet.current) setState((s) => ({ status: 'loading', data: s.data }));
    quiet.current = false;
    load().then(
      (data) => { if (call === latest.current) setState({ status: 'ready', data }); },
      (error: Error) => { if (call === latest.current) setState((s) => ({ status: 'error', data: s.data, error })); },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const refresh = useCallback(() => { quiet.current = true; setTick((t) => t + 1); }, []);
  return { ...state, reload, refresh } as AsyncResult<T>;
}

/**
 * Follows the server: calls `refresh` every `ms` while `active` and the page is visible, so what the screen
 * shows (a build, a probe, a scan, counts) changes by itself within a few seconds of the server's.
 */
export function usePolling(refresh: () => void, ms: number, active = true) {
  useEffect(() => {
    if (!active) return undefined;
    const id = window.setInterval(() => { if (document.visibilityState !== 'hidden') refresh(); }, ms);
    return () => window.clearInterval(id);
  }, [refresh, ms, active]);
}
