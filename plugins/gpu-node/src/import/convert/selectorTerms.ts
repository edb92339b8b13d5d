/**
 * AWSNodeTemplate (`karpenter.k8s.aws/v1alpha1`) selectors were maps; v1
 * takes lists of terms. The mapping is Karpenter's own
 * (`pkg/utils/nodeclass/nodeclass.go`, aws/karpenter-provider-aws v0.32.10,
 * used by `karpenter-convert`; described in
 * `website/content/en/v1.0/upgrading/v1beta1-migration.md`):
 *
 * - `aws::ids` / `aws-ids`: comma-separated ids, one `id` term each;
 * - `aws::name`, `aws::owners` (AMIs): comma-separated, one term per
 *   combination;
 * - any other key is a tag; a comma-separated value is one term per value.
 *
 * One difference: v1 refuses an `id` term with anything else in it (CEL rule
 * "'id' is mutually exclusive" of `karpenter.k8s.aws_ec2nodeclasses.yaml`,
 * v1.0.0), where the old selector ANDed ids with tags. Such terms keep the
 * ids (the stricter part) and the other keys are reported with their value.
 */
import type { ImportFinding } from './findings';

const ID_KEYS = ['aws::ids', 'aws-ids'];

function split(value: string): string[] {
  return value
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '');
}

/** Every combination of one value per tag key. */
function tagCombinations(tags: [string, string][]): Record<string, string>[] {
  let sets: Record<string, string>[] = [{}];
  for (const [key, value] of tags) {
    const next: Record<string, string>[] = [];
    for (const v of split(value)) {
      for (const set of sets) next.push({ ...set, [key]: v });
    }
    sets = next;
  }
  return sets;
}

function sortedEntries(selector: Record<string, unknown>): [string, string][] {
  return Object.keys(selector)
    .sort()
    .map(k => [k, String(selector[k])]);
}

export interface SelectorConversion {
  terms: Record<string, unknown>[];
  findings: ImportFinding[];
}

/**
 * `subnetSelector` / `securityGroupSelector` → terms of `id` or `tags`.
 * `field` names the selector in findings (e.g. `spec.subnetSelector`).
 */
export function idOrTagTerms(
  selector: Record<string, unknown>,
  field: string,
  object: string,
): SelectorConversion {
  const entries = sortedEntries(selector);
  if (entries.length === 0) return { terms: [], findings: [] };
  const ids = entries
    .filter(([k]) => ID_KEYS.includes(k))
    .flatMap(([, v]) => split(v));
  const tags = entries.filter(([k]) => !ID_KEYS.includes(k));
  const findings: ImportFinding[] = [];
  if (ids.length > 0) {
    for (const [key, value] of tags) {
      findings.push({
        kind: 'no-v1-equivalent',
        object,
        field: `${field}.${key}`,
        value,
        message: `v1 selects by id alone: the tag ${key}=${value}, which narrowed the ids, is dropped (the ids ${ids.join(', ')} stay)`,
      });
    }
    return { terms: ids.map(id => ({ id })), findings };
  }
  return {
    terms: tagCombinations(tags).map(t => ({ tags: t })),
    findings,
  };
}

/** `amiSelector` → AMI terms of `id`, or `name` / `owner` / `tags`. */
export function amiTerms(
  selector: Record<string, unknown>,
  field: string,
  object: string,
): SelectorConversion {
  const entries = sortedEntries(selector);
  if (entries.length === 0) return { terms: [], findings: [] };
  const value = (key: string) => entries.find(([k]) => k === key)?.[1];
  const ids = entries
    .filter(([k]) => ID_KEYS.includes(k))
    .flatMap(([, v]) => split(v));
  const special = new Set([...ID_KEYS, 'aws::name', 'aws::owners']);
  const tags = entries.filter(([k]) => !special.has(k));
  const findings: ImportFinding[] = [];
  if (ids.length > 0) {
    for (const [key, v] of entries.filter(([k]) => !ID_KEYS.includes(k))) {
      findings.push({
        kind: 'no-v1-equivalent',
        object,
        field: `${field}.${key}`,
        value: v,
        message: `v1 selects an AMI by id alone: ${key}=${v}, which narrowed the ids, is dropped (the ids ${ids.join(', ')} stay)`,
      });
    }
    return { terms: ids.map(id => ({ id })), findings };
  }
  const names = value('aws::name') ? split(value('aws::name')!) : [undefined];
  const owners = value('aws::owners')
    ? split(value('aws::owners')!)
    : [undefined];
  const terms: Record<string, unknown>[] = [];
  for (const owner of owners) {
    for (const name of names) {
      for (const tagSet of tagCombinations(tags)) {
        terms.push({
          ...(name !== undefined ? { name } : {}),
          ...(owner !== undefined ? { owner } : {}),
          ...(Object.keys(tagSet).length > 0 ? { tags: tagSet } : {}),
        });
      }
    }
  }
  return { terms, findings };
}
