// Small inline-SVG charts: no chart library, nothing fetched.

export interface Point { t: number; v: number }

export function LineChart({ points, label, unit = '', height = 120, max }: { points: Point[]; label: string; unit?: string; height?: number; max?: number }) {
  const width = 560;
  if (points.length === 0) return <p className="muted small">{label}: no data yet.</p>;
  const t0 = Math.min(...points.map((p) => p.t));
  const t1 = Math.max(...points.map((p) => p.t));
  const top = max ?? Math.max(...points.map((p) => p.v), 1e-9);
  const x = (t: number) => (t1 === t0 ? width / 2 : 30 + ((t - t0) / (t1 - t0)) * (width - 40));
  const y = (v: number) => height - 20 - (v / top) * (height - 30);
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  return (
    <figure className="chart">
      <figcaption>{label}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={30} y1={height - 20} x2={width - 10} y2={height - 20} className="axis" />
        <text x={2} y={14} className="tick">{fmt(top)}{unit}</text>
        <text x={2} y={height - 22} className="tick">0</text>
        <text x={30} y={height - 4} className="tick">{new Date(t0).toLocaleTimeString()}</text>
        <text x={width - 10} y={height - 4} className="tick" textAnchor="end">{new Date(t1).toLocaleTimeString()}</text>
        <path d={d} className="line" />
        {points.map((p, i) => <circle key={i} cx={x(p.t)} cy={y(p.v)} r={2.5} className="dot"><title>{`${new Date(p.t).toLocaleString()}: ${fmt(p.v)}${unit}`}</title></circle>)}
      </svg>
    </figure>
  );
}

/** One mark per health probe: green for a success, red for a failure. */
export function HealthStrip({ samples }: { samples: Array<{ t: number; ok: boolean; detail?: string }> }) {
  if (samples.length === 0) return <p className="muted small">No probes yet.</p>;
  const w = 560;
  const step = Math.min(14, w / samples.length);
  return (
    <figure className="chart">
      <figcaption>Health probes (oldest → newest)</figcaption>
      <svg viewBox={`0 0 ${w} 28`} role="img" aria-label="health history">
        {samples.map((s, i) => (
          <rect key={i} x={i * step} y={2} width={Math.max(step - 2, 1)} height={24} className={s.ok ? 'ok' : 'fail'}>
            <title>{`${new Date(s.t).toLocaleString()}: ${s.ok ? 'healthy' : `failed${s.detail ? `: ${s.detail}` : ''}`}`}</title>
          </rect>
        ))}
      </svg>
    </figure>
  );
}

export function BudgetBar({ spent, soft, hard, currency }: { spent: number; soft?: number | null; hard?: number | null; currency: string }) {
  const limit = hard ?? soft ?? null;
  if (limit === null || limit <= 0) return <p>{fmt(spent)} {currency} spent (no budget limit)</p>;
  const pct = Math.min(100, (spent / limit) * 100);
  const state = hard != null && spent >= hard ? 'over' : soft != null && spent >= soft ? 'warn' : 'ok';
  return (
    <div className="budget" role="group" aria-label="spend against budget">
      <div className={`budget-bar budget-${state}`}><span style={{ width: `${pct}%` }} /></div>
      <p className="small">{fmt(spent)} {currency} of {fmt(limit)} {currency}{soft != null ? ` (soft limit ${fmt(soft)})` : ''}{hard != null ? ` · hard limit ${fmt(hard)}` : ''}</p>
    </div>
  );
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2);
}
