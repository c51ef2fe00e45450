/** Shows the librarian's diff of a changed tool against its approved version, whatever its shape. */
export function Diff({ diff, beforeLabel = 'Approved version', afterLabel = 'New version' }: { diff: unknown; beforeLabel?: string; afterLabel?: string }) {
  if (diff === null || diff === undefined) return null;
  if (typeof diff === 'string') return <pre className="diff">{diff}</pre>;
  const entries: Array<{ path: string; before?: unknown; after?: unknown; op?: string; note?: string }> = [];
  if (Array.isArray(diff)) {
    for (const d of diff) {
      if (d && typeof d === 'object') {
        const e = d as Record<string, unknown>;
        entries.push({ path: String(e.path ?? ''), before: e.before, after: e.after, op: e.op as string | undefined, note: e.note as string | undefined });
      } else {
        entries.push({ path: String(d) });
      }
    }
  } else if (typeof diff === 'object') {
    const d = diff as Record<string, unknown>;
    if (Array.isArray(d.changes)) return <Diff diff={d.changes} beforeLabel={beforeLabel} afterLabel={afterLabel} />;
    for (const [path, v] of Object.entries(d)) {
      const e = v && typeof v === 'object' ? v as Record<string, unknown> : { after: v };
      entries.push({ path, before: e.before ?? e.old, after: e.after ?? e.new });
    }
  }
  if (entries.length === 0) return <p className="muted">No differences.</p>;
  const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 1));
  return (
    <table className="table diff-table">
      <thead><tr><th>What changed</th><th>{beforeLabel}</th><th>{afterLabel}</th></tr></thead>
      <tbody>
        {entries.map((e, i) => (
          <tr key={i}>
            <td className="mono">{e.op ? `${e.op} ` : ''}{e.path || '(whole manifest)'}{e.note && <div className="small muted">{e.note}</div>}</td>
            <td className="diff-old"><pre>{show(e.before)}</pre></td>
            <td className="diff-new"><pre>{show(e.after)}</pre></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
