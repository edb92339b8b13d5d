import {
  checkDevicePluginConfig,
  checkKarpenterLabels,
  checkMigPartedConfig,
  checkNodePoolRules,
  InputIssue,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The shared gpu-common rule checks, as validateGitOpsTree applies them to
 * what it finds in a repository.
 */
export const configRuleFindings = {
  /** Karpenter restricted labels (NodePool, NodeOverlay) and NodePool CEL rules. */
  object(object: { kind: string }, karpenterVersion?: string): InputIssue[] {
    if (object.kind !== 'NodePool' && object.kind !== 'NodeOverlay') return [];
    const findings = checkKarpenterLabels(object, { karpenterVersion });
    if (object.kind === 'NodePool') {
      findings.push(...checkNodePoolRules(object, { karpenterVersion }));
    }
    return findings;
  },
  /** A repository may hold a plain `default` config, so sharing is not required. */
  devicePlugin(config: unknown): InputIssue[] {
    return checkDevicePluginConfig(config, { requireSharing: false });
  },
  migParted(config: unknown): InputIssue[] {
    return checkMigPartedConfig(config);
  },
};
