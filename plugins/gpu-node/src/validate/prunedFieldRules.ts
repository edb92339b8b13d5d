import { asKubernetesObject } from '../repo/yamlObjects';
import { prunedPaths } from './crdFieldTree';
import {
  CRD_FIELD_TREES,
  CRD_FIELD_TREES_SOURCE,
} from './crdFieldTrees.generated';
import { Finding, objectName } from './findings';
import type { SourceTree } from './sourceTree';

/** Where a field the v1 API dropped went, for the message. */
const MOVED: Record<string, string> = {
  'karpenter.sh/v1 NodePool spec.template.spec.kubelet':
    'karpenter.sh/v1 moved the kubelet settings to the node class (EC2NodeClass / AKSNodeClass spec.kubelet)',
};

/**
 * Every field of a Karpenter object (and its node class) that the API server
 * would prune: not in the CRD's structural schema, so it is dropped on apply
 * without an error and never takes effect. Patches are checked too (their
 * fields land on the object); kustomize's `$` directives are not fields.
 */
export function checkPrunedFields(
  source: SourceTree,
  findings: Finding[],
): void {
  for (const doc of source.docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || typeof obj.apiVersion !== 'string') continue;
    const key = `${obj.apiVersion} ${obj.kind}`;
    const tree = CRD_FIELD_TREES[key];
    if (!tree) continue;
    for (const path of prunedPaths(obj, tree)) {
      const moved = MOVED[`${key} ${path}`];
      findings.push({
        file: doc.path,
        object: objectName(obj),
        rule: 'field-pruned',
        message: `${path}: ${key} has no such field (${CRD_FIELD_TREES_SOURCE}), so the API server prunes it on apply and it never takes effect${moved ? `; ${moved}` : ''}`,
      });
    }
  }
}
