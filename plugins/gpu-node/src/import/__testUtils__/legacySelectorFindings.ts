/**
 * TEST-ONLY: what `validate` says of the v1alpha5 fixture's workloads once
 * the import made its Provisioners v1 NodePools. The import leaves
 * workloads as they are and reports their `karpenter.sh/provisioner-name`
 * selectors (importedRequests.ts); v1 nodes never carry that label, so their
 * pods can land on no pool until a team changes them, and validate says so.
 */
import type { Finding } from '../../validate/findings';

export const LEGACY_SELECTOR_WORKLOADS: ReadonlyArray<
  [string, string, string]
> = [
  ['apps/ml/chat/deployment.yaml', 'Deployment/chat', 'gpu-t4'],
  [
    'apps/ml/embeddings/statefulset.yaml',
    'StatefulSet/embeddings',
    'gpu-a100-mig',
  ],
];

/** The findings of the two workloads whose selectors still name a Provisioner. */
export function legacySelectorFindings(findings: Finding[]) {
  return findings.map(f => [
    f.file,
    f.object,
    f.rule,
    f.message.startsWith(
      'its pods can land on no pool: nodeSelector karpenter.sh/provisioner-name=',
    ),
  ]);
}

export const EXPECTED_LEGACY_SELECTOR_FINDINGS = LEGACY_SELECTOR_WORKLOADS.map(
  ([file, object]) => [file, object, 'workload-unschedulable', true],
);
