/**
 * The NodeOverlays the product adds beside a pool it did not write (one the
 * import adopted, or one written by hand): they tell Karpenter what the
 * pool's nodes advertise (its slices) and change no NodePool template, so
 * no node is replaced. The pool's owners ran it without them, so they go
 * again once the pool is back to what it held then: each carries the
 * pool's ledger from just before it was added (`<labelDomain>/ledger-before`),
 * and the release (or a request moving away) that leaves the ledger within
 * it removes them. The pool's own file is then given back as it was.
 */
import type { Document } from 'yaml';
import {
  gpuAnnotationKeys,
  parseLedger,
  type KubernetesObject,
  type LedgerEntry,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn, stringRecord } from '../repo/yamlObjects';
import { isManagedObject } from './ownership';
import type { YamlFile } from './yamlFile';

const NODE_OVERLAY = 'NodeOverlay';

/** A NodeOverlay the product wrote for pool `name` (its pool label, or its only NodePool requirement). */
export function isOverlayOf(
  value: unknown,
  name: string,
  labelDomain: string,
): boolean {
  if (getIn(value, 'kind') !== NODE_OVERLAY || !isManagedObject(value)) {
    return false;
  }
  if (getIn(value, 'metadata', 'labels', `${labelDomain}/pool`) === name) {
    return true;
  }
  const requirements = getIn(value, 'spec', 'requirements');
  return (
    Array.isArray(requirements) &&
    requirements.some(
      r =>
        getIn(r, 'key') === 'karpenter.sh/nodepool' &&
        JSON.stringify(getIn(r, 'values')) === JSON.stringify([name]),
    )
  );
}

/** `object` as added beside a pool the product did not write: a NodeOverlay records the pool's ledger before it. */
export function asAddedObject(
  object: KubernetesObject,
  ledgerBefore: string,
  labelDomain: string,
): KubernetesObject {
  if (object.kind !== NODE_OVERLAY) return object;
  const key = gpuAnnotationKeys(labelDomain).ledgerBefore;
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: {
        ...stringRecord(object.metadata.annotations),
        [key]: ledgerBefore,
      },
    },
  };
}

/** True when every entry of `ledger` was already held, as much, in `before`. */
function heldBefore(
  ledger: readonly LedgerEntry[],
  before: readonly LedgerEntry[],
): boolean {
  return ledger.every(entry => {
    const was = before.find(b => b.request === entry.request);
    return (
      was !== undefined &&
      entry.replicas <= was.replicas &&
      entry.unitsPerReplica <= was.unitsPerReplica
    );
  });
}

/**
 * Removes from `file` the NodeOverlays added beside pool `name` once its
 * `ledger` is back within the one they recorded. One whose record is not a
 * ledger (edited by hand) stays: what cannot be told is not removed.
 */
export function removeAddedOverlays(
  file: YamlFile,
  name: string,
  ledger: readonly LedgerEntry[],
  labelDomain: string,
): void {
  const key = gpuAnnotationKeys(labelDomain).ledgerBefore;
  const going: Document[] = file.docs.filter(doc => {
    const value = doc.toJS();
    if (!isOverlayOf(value, name, labelDomain)) return false;
    const before = parseLedger(getIn(value, 'metadata', 'annotations', key));
    return before !== undefined && heldBefore(ledger, before);
  });
  for (const doc of going) file.remove(doc);
}
