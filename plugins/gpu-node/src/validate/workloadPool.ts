import { WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import { findOurLabel } from '../repo/poolLabels';
import { getIn, stringRecord } from '../repo/yamlObjects';

/**
 * The pool a pod spec pins by nodeSelector: Karpenter's
 * `karpenter.sh/nodepool`, or the product's `<labelDomain>/pool`, the label
 * its Cluster API and static pools' nodes carry (gpu-common
 * `manifests/metadataKeys.ts`), whatever the label domain.
 */
export function pinnedPool(podSpec: unknown): string | undefined {
  const selector = stringRecord(getIn(podSpec, 'nodeSelector'));
  return (
    selector[WELL_KNOWN_KEYS.karpenterNodePool] ??
    findOurLabel(selector, ['pool'])
  );
}
