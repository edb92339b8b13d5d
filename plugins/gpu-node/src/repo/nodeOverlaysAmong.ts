/**
 * The NodeOverlays among a reader's objects, as Karpenter reads them
 * (`validate/builtOverlays.ts` `nodeOverlayOf`, one reading for the built
 * and the written objects): the landing model gives the NodePools they
 * reach the resources they add (gpu-common `clusterLandingModel`).
 */
import type { NodeOverlayLike } from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import { nodeOverlayOf } from '../validate/builtOverlays';
import { asKubernetesObject } from './yamlObjects';

/** Karpenter's NodeOverlay kind (`karpenter.sh/v1alpha1`). */
const NODE_OVERLAY = 'NodeOverlay';

/**
 * Each NodeOverlay among `objects`.
 *
 * @public
 */
export function nodeOverlaysAmong(
  objects: readonly unknown[],
): NodeOverlayLike[] {
  return objects.flatMap(value => {
    const object = asKubernetesObject(value);
    return object?.kind === NODE_OVERLAY
      ? [nodeOverlayOf(object as BuiltObject)]
      : [];
  });
}
