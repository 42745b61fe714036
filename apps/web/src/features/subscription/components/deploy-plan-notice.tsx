import { FeatureUpgradePrompt, LimitUpgradePrompt } from '../../../components/upgrade-prompt';
import type { DeployRefusal } from '../api/deploy-allowance';

/**
 * A deploy dialog's word on the plan before the form is filled in: what the plan in the chosen party lacks
 * or has used up, with the way to the upgrade (the same words a refused Deploy gives).
 */
export function DeployPlanNotice({ refusal, what }: { refusal: DeployRefusal; what: string }) {
  if (refusal.kind === 'feature') {
    return (
      <FeatureUpgradePrompt feature={refusal.feature}>
        {`The plan that applies to you in this party does not let you deploy ${what} there. A higher plan of your own, or a member sponsoring you in this party with one, does.`}
      </FeatureUpgradePrompt>
    );
  }
  return <LimitUpgradePrompt resource={refusal.resource}>{refusal.message}</LimitUpgradePrompt>;
}
