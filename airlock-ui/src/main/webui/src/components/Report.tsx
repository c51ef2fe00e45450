import type { VerificationReport } from '../api/types';

export function Report({ report, failureReason }: { report?: VerificationReport | null; failureReason?: string | null }) {
  if (!report && !failureReason) return <p className="muted">No build yet: the engineer builds and verifies the wrapper after approval.</p>;
  return (
    <div>
      {report && (
        <p>
          <span className={`badge ${report.passed ? 'status-succeeded' : 'status-failed'}`}>{report.passed ? 'verification passed' : 'verification failed'}</span>
          {' '}{report.cases.filter((c) => c.passed).length}/{report.cases.length} cases passed{report.durationMs != null ? ` in ${report.durationMs} ms` : ''}
        </p>
      )}
      {failureReason && <p className="error-text">{failureReason}</p>}
      {report && report.cases.length > 0 && (
        <table className="table">
          <thead><tr><th>Case</th><th>Kind</th><th>Result</th><th>Detail</th></tr></thead>
          <tbody>
            {report.cases.map((c) => (
              <tr key={c.name}><td className="mono">{c.name}</td><td>{c.kind ?? ''}</td>
                <td>{c.passed ? <span className="badge status-succeeded">passed</span> : <span className="badge status-failed">failed</span>}</td>
                <td className="small">{c.detail ?? ''}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
