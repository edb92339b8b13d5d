import {
  checkDevicePluginConfig,
  checkKarpenterLabels,
  checkMigPartedConfig,
  checkNodePoolRules,
  InputIssue,
  karpenterServesOnlyV1,
} from '@gpu-gitops/plugin-gpu-common';
import { legacyApi } from '../import/convert/legacyKinds';
import type { PlainObject } from '../repo/yamlObjects';

/**
 * The shared gpu-common rule checks, as validateGitOpsTree applies them to
 * what it finds in a repository.
 */
export const configRuleFindings = {
  /**
   * Karpenter restricted labels (NodePool, NodeOverlay) and NodePool CEL
   * rules: the rules of Karpenter's current APIs, so on those only. A pre-v1
   * object is not judged by them; on a cluster whose Karpenter serves only
   * v1 it cannot be applied at all, and that is the finding.
   */
  object(
    object: PlainObject & { kind: string },
    karpenterVersion?: string,
  ): InputIssue[] {
    if (legacyApi(object)) {
      return karpenterVersion && karpenterServesOnlyV1(karpenterVersion)
        ? [
            {
              path: 'apiVersion',
              rule: 'karpenter-api-not-served',
              message: `${String(object.apiVersion)} ${object.kind} is not served by Karpenter ${karpenterVersion} (v1.1 and later serve v1 only), so it cannot be applied: convert it to v1 (\`gpu-gitops import\` converts a cluster's objects with their patches)`,
            },
          ]
        : [];
    }
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
