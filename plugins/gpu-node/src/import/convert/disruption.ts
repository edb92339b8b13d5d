/**
 * When Karpenter removes or replaces a pool's nodes, legacy → v1.
 *
 * v1alpha5 (`website/content/en/v1.0/upgrading/v1beta1-migration.md`,
 * "TTLSecondsAfterEmpty", "Consolidation", "TTLSecondsUntilExpired"; the copy
 * in `pkg/utils/nodepool/nodepool.go`, kubernetes-sigs/karpenter v0.32.10):
 * `consolidation.enabled: true` → consolidate underutilized nodes (v1 name
 * `WhenEmptyOrUnderutilized`, `consolidateAfter: 0s`, the v1 guide's "same
 * behavior as in v1beta1"); else `ttlSecondsAfterEmpty` → `WhenEmpty` after
 * that long; `ttlSecondsUntilExpired` → `spec.template.spec.expireAfter`
 * (where v1 moved it).
 *
 * A v1alpha5 Provisioner with neither consolidation nor an emptiness TTL never
 * removed a node, and without a TTL it never expired one; v1 consolidates and
 * expires (720h, forcefully) by default, which would drain GPU jobs. The old
 * behaviour is written out (`WhenEmpty` after `Never`, `expireAfter: Never`)
 * and reported.
 *
 * v1beta1 (`Disruption.convertFrom` and `NodePoolSpec.convertFrom`,
 * `pkg/apis/v1/nodepool_conversion.go`, kubernetes-sigs/karpenter v1.0.0):
 * `WhenUnderutilized` (also the v1beta1 default) → `WhenEmptyOrUnderutilized`
 * with `consolidateAfter: 0s`; `WhenEmpty` keeps its `consolidateAfter`
 * (unset meant `Never`); budgets are kept; `disruption.expireAfter` →
 * `spec.template.spec.expireAfter`. v1 requires `consolidateAfter`.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { secondsToDuration, wholeSeconds } from './durations';
import { copy, FieldReader } from './fieldReader';
import type { ImportFinding } from './findings';

export interface V1Disruption {
  disruption: PlainObject;
  /** `spec.template.spec.expireAfter`, when set. */
  expireAfter?: string;
  findings: ImportFinding[];
}

/** From a v1alpha5 Provisioner's spec (the reader marks the fields it maps). */
export function disruptionFromProvisioner(
  spec: FieldReader,
  object: string,
): V1Disruption {
  const findings: ImportFinding[] = [];
  const consolidation = spec.takeMap('consolidation');
  const consolidate = consolidation?.enabled === true;
  const afterEmpty = spec.take('ttlSecondsAfterEmpty');
  const untilExpired = spec.take('ttlSecondsUntilExpired');
  let disruption: PlainObject;
  if (consolidate) {
    disruption = {
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: '0s',
    };
    if (afterEmpty !== undefined) {
      findings.push({
        kind: 'no-v1-equivalent',
        object,
        field: 'spec.ttlSecondsAfterEmpty',
        value: afterEmpty,
        message:
          'consolidation.enabled already removes empty nodes; v1 has one policy, WhenEmptyOrUnderutilized, so the emptiness TTL is dropped',
      });
    }
  } else if (wholeSeconds(afterEmpty) !== undefined) {
    disruption = {
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: secondsToDuration(wholeSeconds(afterEmpty)!),
    };
  } else {
    disruption = {
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: 'Never',
    };
    findings.push({
      kind: 'default-kept',
      object,
      field: 'spec.disruption',
      message:
        'the Provisioner never removed nodes (no consolidation, no ttlSecondsAfterEmpty); v1 would consolidate by default, so consolidateAfter: Never keeps them',
    });
  }
  let expireAfter: string;
  if (wholeSeconds(untilExpired) !== undefined) {
    expireAfter = secondsToDuration(wholeSeconds(untilExpired)!);
  } else {
    expireAfter = 'Never';
    findings.push({
      kind: 'default-kept',
      object,
      field: 'spec.template.spec.expireAfter',
      message:
        'the Provisioner never expired nodes (no ttlSecondsUntilExpired); v1 would expire them after 720h, forcefully, so expireAfter: Never keeps them',
    });
  }
  return { disruption, expireAfter, findings };
}

/** From a v1beta1 NodePool's `spec.disruption`. */
export function disruptionFromV1beta1(
  value: unknown,
  object: string,
): V1Disruption {
  const reader = new FieldReader(
    isPlainObject(value) ? value : {},
    'spec.disruption',
    object,
  );
  const policy = reader.take('consolidationPolicy') ?? 'WhenUnderutilized';
  const after = reader.take('consolidateAfter');
  const budgets = reader.take('budgets');
  const expireAfter = reader.take('expireAfter');
  const disruption: PlainObject =
    policy === 'WhenUnderutilized'
      ? {
          consolidationPolicy: 'WhenEmptyOrUnderutilized',
          consolidateAfter: '0s',
        }
      : {
          consolidationPolicy: policy,
          consolidateAfter: after === undefined ? 'Never' : String(after),
        };
  if (Array.isArray(budgets)) disruption.budgets = copy(budgets);
  return {
    disruption,
    ...(expireAfter !== undefined ? { expireAfter: String(expireAfter) } : {}),
    findings: reader.untaken(
      field => `spec.disruption.${field} has no equivalent in a v1 NodePool`,
    ),
  };
}
