import type {
  ClusterCapabilities,
  SharingMode,
  Unavailable,
} from '@gpu-gitops/plugin-gpu-common';
import { checkAllowedChoices, type GpuPolicy } from './gpuPolicy';

/**
 * A cluster's capabilities as one owner sees them: the sharing modes and
 * models its policy forbids are unavailable too, with the policy's own
 * refusal as the reason (the words the actions and `POST /plan` refuse with).
 * What the cluster cannot run stays the reason given first.
 *
 * @public
 */
export function capabilitiesForOwner(
  capabilities: ClusterCapabilities,
  policy: GpuPolicy,
  owner: string,
): ClusterCapabilities {
  const refusal = (
    path: Unavailable['path'],
    choice: { model?: string; sharing: SharingMode },
  ): Unavailable | undefined => {
    const issue = checkAllowedChoices(policy, { owner, ...choice }).find(
      i => i.path === path,
    );
    return issue && { path, rule: issue.rule, reason: issue.message };
  };
  return {
    ...capabilities,
    sharingModes: capabilities.sharingModes.map(choice => {
      const unavailable =
        choice.unavailable ??
        refusal('spec.gpu.sharing', { sharing: choice.mode });
      return unavailable ? { ...choice, unavailable } : choice;
    }),
    models: capabilities.models.map(choice => {
      // Only the model's own rule is read here: the mode is the form's other choice.
      const unavailable =
        choice.unavailable ??
        refusal('spec.gpu.model', { model: choice.id, sharing: 'exclusive' });
      return unavailable ? { ...choice, unavailable } : choice;
    }),
  };
}
