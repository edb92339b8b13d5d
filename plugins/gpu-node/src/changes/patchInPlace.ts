/**
 * The GPU patch applied to a plain manifest in place (no kustomization
 * deploys it), as kustomize would apply it, with a record of what it replaced
 * (`replacedFields.ts`) for the release. A re-render of the same request (a
 * resize, a moved base) first undoes the request's earlier patch, so the patch
 * is built on, and the record keeps, the manifest as the team wrote it, never
 * the request's own earlier values.
 */
import type { Document } from 'yaml';
import {
  gpuAnnotationKeys,
  strategicMerge,
  type ClusterProfile,
  type KubernetesObject,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { withoutGpuFields } from './release/withoutGpuFields';
import { recordReplaced } from './replacedFields';
import { syncNode } from './yamlFile';

type InPlaceCluster = Pick<
  ClusterProfile,
  'labelDomain' | 'gpuTaintKey' | 'provider' | 'clusterApi'
>;

/** The manifest document as it was before request `requestId` (a copy; `doc` is not changed). */
export function beforeRequest(
  doc: Document,
  kind: WorkloadKind,
  requestId: string,
  cluster: InPlaceCluster,
): unknown {
  const copy = doc.clone();
  withoutGpuFields(
    copy,
    kind,
    requestId,
    gpuAnnotationKeys(cluster.labelDomain),
    cluster,
  );
  return copy.toJS();
}

/** Applies `patch` to `doc` in place; true when the document changed. */
export function patchInPlace(
  doc: Document,
  patch: KubernetesObject,
  requestId: string,
  cluster: InPlaceCluster,
): boolean {
  const kind = patch.kind as WorkloadKind;
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  const undone = withoutGpuFields(doc, kind, requestId, keys, cluster);
  const before = doc.toJS();
  const merged = strategicMerge(before, patch) as KubernetesObject;
  merged.metadata.annotations = {
    ...(merged.metadata.annotations as Record<string, string> | undefined),
    [keys.replaced]: recordReplaced(doc, kind, merged),
  };
  const changed = syncNode(doc, [], JSON.parse(JSON.stringify(merged)));
  return changed || undone;
}
