/**
 * What the product manages, and so may change: objects carrying its
 * `app.kubernetes.io/managed-by` label, or (written before that label was
 * set everywhere) carrying its request annotation for this very request.
 * Everything else in a repository belongs to people and is never
 * overwritten, renamed or taken over.
 */
import {
  gpuAnnotationKeys,
  MANAGED_BY,
  WELL_KNOWN_KEYS,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../repo/yamlObjects';

export function isManagedObject(object: unknown): boolean {
  return (
    getIn(object, 'metadata', 'labels', WELL_KNOWN_KEYS.managedBy) ===
    MANAGED_BY
  );
}

/**
 * True when the object was written for the request `<namespace>/<name>`: it
 * carries our request annotation with that id (every object the product
 * renders for a request does, whatever its age).
 */
export function isOwnedByRequest(
  object: unknown,
  requestId: string,
  labelDomain: string,
): boolean {
  return (
    getIn(
      object,
      'metadata',
      'annotations',
      gpuAnnotationKeys(labelDomain).request,
    ) === requestId
  );
}

/** `Kind "name"` (and namespace) of an object, for messages. */
export function describeObject(object: unknown): string {
  const kind = getIn(object, 'kind');
  const name = getIn(object, 'metadata', 'name');
  const namespace = getIn(object, 'metadata', 'namespace');
  return `${String(kind ?? 'object')} "${String(name ?? '?')}"${typeof namespace === 'string' ? ` in namespace "${namespace}"` : ''}`;
}
