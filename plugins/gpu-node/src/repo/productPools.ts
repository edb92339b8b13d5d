/**
 * Which pool objects are the product's. A pool the product wrote carries the
 * `app.kubernetes.io/managed-by` label and its pool annotations
 * (`<labelDomain>/sharing-mode`, the ledger...); a pool the import adopted
 * carries the pool annotations and its ledger only (the import never adds
 * labels: a changed NodePool template replaces every node). Either way the
 * product keeps the pool's ledger and limits, wherever its file lives; a
 * pool with neither was written by hand and is only read.
 */
import { MANAGED_BY, WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import { findOurLabel, POOL_LABEL_SUFFIXES } from './poolLabels';
import { getIn, stringRecord } from './yamlObjects';

/**
 * True when a pool object (NodePool, MachineDeployment, NodeFeatureRule)
 * carries the product's pool annotations. Matched by suffix, as every reader
 * matches our keys: `sharing-mode` is written on every pool the product
 * writes or adopts, whatever its sharing.
 */
export function hasPoolAnnotations(object: unknown): boolean {
  const annotations = stringRecord(getIn(object, 'metadata', 'annotations'));
  return findOurLabel(annotations, POOL_LABEL_SUFFIXES.sharing) !== undefined;
}

/**
 * True when the product manages the pool object: written by a request (the
 * managed-by label, on every pool kind it writes) or adopted by the import,
 * which writes the pool's ledger (`<labelDomain>/requests`, empty too) beside
 * its pool annotations. Both annotations are asked for, so that a team's own
 * `<domain>/sharing` annotation never makes its pool the product's.
 */
export function isProductPool(object: unknown): boolean {
  if (
    getIn(object, 'metadata', 'labels', WELL_KNOWN_KEYS.managedBy) ===
    MANAGED_BY
  ) {
    return true;
  }
  const annotations = stringRecord(getIn(object, 'metadata', 'annotations'));
  return (
    hasPoolAnnotations(object) &&
    findOurLabel(annotations, POOL_LABEL_SUFFIXES.requests) !== undefined
  );
}
