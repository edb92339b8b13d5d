/**
 * Annotations Karpenter reads on nodes: `karpenter.sh/do-not-consolidate` and
 * `karpenter.sh/do-not-evict` were replaced by `karpenter.sh/do-not-disrupt`
 * in v1beta1 and removed in v1 (`website/content/en/v1.0/upgrading/`
 * `v1beta1-migration.md`, "Annotations, Labels, and Status Conditions";
 * `v1-migration.md`, "Deprecated Annotations, Labels, and Tags Removed").
 */
import type { PlainObject } from '../../repo/yamlObjects';
import type { ImportFinding } from './findings';

export const LEGACY_DO_NOT_DISRUPT = [
  'karpenter.sh/do-not-consolidate',
  'karpenter.sh/do-not-evict',
];
export const DO_NOT_DISRUPT = 'karpenter.sh/do-not-disrupt';

/** The annotations with the legacy keys renamed (the new key wins when both are set). */
export function renameDoNotDisrupt(
  annotations: PlainObject,
  field: string,
  object: string,
): { annotations: PlainObject; findings: ImportFinding[] } {
  const out: PlainObject = {};
  const findings: ImportFinding[] = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (!LEGACY_DO_NOT_DISRUPT.includes(key)) {
      out[key] = value;
      continue;
    }
    if (!(DO_NOT_DISRUPT in annotations)) out[DO_NOT_DISRUPT] = value;
    findings.push({
      kind: 'note',
      object,
      field: `${field}.${key}`,
      value,
      message: `${key} was removed in Karpenter v1; written as ${DO_NOT_DISRUPT}`,
    });
  }
  return { annotations: out, findings };
}
