import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import { asKubernetesObject } from '../repo/yamlObjects';

/**
 *  One problem a reviewer should see on a GitOps pull request.
 *
 * @public
 */
export interface Finding {
  /** Repository-relative path of the file. */
  file: string;
  /** `Kind/name` of the object, a config key, or '' for the whole file. */
  object: string;
  rule: string;
  message: string;
}

/** `Kind/name` of a Kubernetes object, '' for anything else. */
export function objectName(value: unknown): string {
  const obj = asKubernetesObject(value);
  return obj ? `${obj.kind}/${obj.metadata.name}` : '';
}

/** A shared rule's issue as a message: `path: message`. */
export function prefixPath(f: { path: string; message: string }): string {
  return f.path ? `${f.path}: ${f.message}` : f.message;
}

/** Findings in a stable order: by file, then object. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      compareStrings(a.file, b.file) || compareStrings(a.object, b.object),
  );
}
