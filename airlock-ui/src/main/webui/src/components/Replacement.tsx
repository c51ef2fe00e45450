import type { Collision } from '../api/types';
import { Diff } from './Diff';
import { PolicySummary } from './PolicySummary';
import { RiskBadge } from './ui';

/**
 * A tool in service that the candidate would replace: where it comes from, every difference from it to the
 * candidate (endpoint, method, risk, parameters, ...) and the policy it runs under now, which the approval
 * replaces. Shown on the review page and again in the approve dialog.
 */
export function Replacement({ collision }: { collision: Collision }) {
  const from = `${collision.source}${collision.operationKey ? ` (${collision.operationKey})` : ''}`;
  return (
    <div className="replacement">
      <p>
        This tool has the id{collision.matchedOn.includes('verb') ? ' and verb' : ''} of <span className="mono">{collision.toolId}</span>,
        in service from {from}. Approving it supersedes that tool: planners get this one, under the policy the approval states.
      </p>
      {collision.activeRisk && <p>Risk in service: <RiskBadge risk={collision.activeRisk} /></p>}
      <Diff diff={collision.diff} beforeLabel={`In service (${collision.source})`} afterLabel="This candidate" />
      <h3>Policy in force now (replaced by the approval)</h3>
      {collision.activePolicy ? <PolicySummary policy={collision.activePolicy} /> : <p className="muted">None recorded.</p>}
    </div>
  );
}
