import { karpenterSupportsGte } from '../cluster/karpenterVersion';
import {
  untoleratedTaints,
  type NodeTaint,
  type PodToleration,
} from '../manifests/tolerations';
import { isRecord, joinPath, type ValidationFinding } from './finding';

/**
 * NodePool v1 rules beyond the JSON schema (aws/karpenter-provider-aws v1.14.1
 * `pkg/apis/crds/karpenter.sh_nodepools.yaml`): CEL rules of the CRD,
 * version-gated operators, and taint / toleration consistency.
 */

/** Findings for every NoSchedule/NoExecute taint that no toleration tolerates. */
export function checkTolerationsMatchTaints(
  taints: NodeTaint[],
  tolerations: PodToleration[],
  path = 'spec.template.spec.tolerations',
): ValidationFinding[] {
  return untoleratedTaints(taints, tolerations).map(taint => ({
    path,
    rule: 'untolerated-taint',
    message: `no toleration matches the pool taint ${taint.key}=${taint.value ?? ''}:${taint.effect}; pods would never schedule there`,
  }));
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DURATION = /^(([0-9]+(s|m|h))+|Never)$/;

/** @public */
export interface NodePoolRuleOptions {
  /** Cluster's Karpenter version: `Gte`/`Lte` need ≥ 1.9.0. */
  karpenterVersion?: string;
}

/** @public */
export function checkNodePoolRules(
  nodePool: unknown,
  options: NodePoolRuleOptions = {},
): ValidationFinding[] {
  if (!isRecord(nodePool) || !isRecord(nodePool.spec)) {
    return [
      { path: 'spec', rule: 'required', message: 'a NodePool needs a spec' },
    ];
  }
  const spec = nodePool.spec;
  const template = isRecord(spec.template) ? spec.template : {};
  const templateSpec = isRecord(template.spec) ? template.spec : {};
  // Limits are int-or-string quantities (the CRD's `x-kubernetes-int-or-string`):
  // `cpu: 1000` is as valid as `cpu: "1000"`, so neither is a finding.
  return [
    ...disruptionFindings(spec),
    ...nodeClassRefFindings(templateSpec),
    ...templateLabelFindings(template),
    ...requirementFindings(templateSpec, options),
    ...staticPoolFindings(spec),
  ];
}

/** `consolidateAfter` is required whenever `spec.disruption` is set (a CEL rule of the CRD). */
function disruptionFindings(
  spec: Record<string, unknown>,
): ValidationFinding[] {
  if (spec.disruption === undefined) return [];
  const disruption = isRecord(spec.disruption) ? spec.disruption : {};
  const after = disruption.consolidateAfter;
  if (after === undefined) {
    return [
      {
        path: 'spec.disruption.consolidateAfter',
        rule: 'consolidate-after-required',
        message:
          'consolidateAfter is required whenever spec.disruption is set (e.g. 5m, or 0s for immediate)',
      },
    ];
  }
  if (typeof after !== 'string' || !DURATION.test(after)) {
    return [
      {
        path: 'spec.disruption.consolidateAfter',
        rule: 'duration',
        message:
          'consolidateAfter must be a duration like 30s, 5m, 1h or Never',
      },
    ];
  }
  return [];
}

/** v1 needs the node class's group, kind and name, none empty. */
function nodeClassRefFindings(
  templateSpec: Record<string, unknown>,
): ValidationFinding[] {
  const ref = isRecord(templateSpec.nodeClassRef)
    ? templateSpec.nodeClassRef
    : undefined;
  return ['group', 'kind', 'name']
    .filter(field => typeof ref?.[field] !== 'string' || ref[field] === '')
    .map(field => ({
      path: `spec.template.spec.nodeClassRef.${field}`,
      rule: 'node-class-ref',
      message: `nodeClassRef.${field} is required and may not be empty (v1 needs group, kind and name)`,
    }));
}

/** Label values: the CRD's pattern and length, which the JSON schema models omit. */
function templateLabelFindings(
  template: Record<string, unknown>,
): ValidationFinding[] {
  const templateMeta = isRecord(template.metadata) ? template.metadata : {};
  const labels = isRecord(templateMeta.labels) ? templateMeta.labels : {};
  const findings: ValidationFinding[] = Object.entries(labels)
    .filter(
      ([, value]) =>
        typeof value !== 'string' ||
        value.length > 63 ||
        !LABEL_VALUE.test(value),
    )
    .map(([key, value]) => ({
      path: `spec.template.metadata.labels["${key}"]`,
      rule: 'label-value',
      message: `label value "${String(value)}" must be at most 63 characters of [A-Za-z0-9-_.], starting and ending alphanumeric`,
    }));
  if (Object.keys(labels).length > 100) {
    findings.push({
      path: 'spec.template.metadata.labels',
      rule: 'max-items',
      message: 'at most 100 template labels',
    });
  }
  return findings;
}

/** The requirements' CEL rules: values per operator, version-gated operators, minValues. */
function requirementFindings(
  templateSpec: Record<string, unknown>,
  options: NodePoolRuleOptions,
): ValidationFinding[] {
  const requirements = Array.isArray(templateSpec.requirements)
    ? templateSpec.requirements
    : [];
  const findings: ValidationFinding[] = [];
  if (requirements.length > 100) {
    findings.push({
      path: 'spec.template.spec.requirements',
      rule: 'max-items',
      message: 'at most 100 requirements',
    });
  }
  const gte =
    options.karpenterVersion === undefined ||
    karpenterSupportsGte(options.karpenterVersion);
  requirements.forEach((requirement, index) => {
    if (!isRecord(requirement)) return;
    findings.push(
      ...oneRequirementFindings(
        requirement,
        joinPath('spec.template.spec.requirements', index),
        gte ? undefined : options.karpenterVersion,
      ),
    );
  });
  return findings;
}

function oneRequirementFindings(
  requirement: Record<string, unknown>,
  at: string,
  /** The cluster's Karpenter version when it is older than `Gte`/`Lte`. */
  beforeGte: string | undefined,
): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const values = Array.isArray(requirement.values) ? requirement.values : [];
  const op = requirement.operator;
  if ((op === 'In' || op === 'NotIn') && values.length === 0) {
    findings.push({
      path: `${at}.values`,
      rule: 'requirement-values',
      message: `requirements with operator '${op}' must have a value defined`,
    });
  }
  if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) {
    findings.push({
      path: `${at}.values`,
      rule: 'requirement-values',
      message: `operator '${op}' takes no values`,
    });
  }
  if (op === 'Gt' || op === 'Lt' || op === 'Gte' || op === 'Lte') {
    if (values.length !== 1 || !/^\d+$/.test(String(values[0]))) {
      findings.push({
        path: `${at}.values`,
        rule: 'requirement-values',
        message: `operator '${op}' needs exactly one integer value >= 0`,
      });
    }
    if ((op === 'Gte' || op === 'Lte') && beforeGte !== undefined) {
      findings.push({
        path: `${at}.operator`,
        rule: 'operator-version',
        message: `operator '${op}' needs Karpenter >= 1.9.0; use Gt/Lt for ${beforeGte}`,
      });
    }
  }
  const minValues = requirement.minValues;
  if (
    op === 'In' &&
    typeof minValues === 'number' &&
    values.length < minValues
  ) {
    findings.push({
      path: `${at}.minValues`,
      rule: 'min-values',
      message: `requirements with 'minValues' must have at least that many values (${minValues})`,
    });
  }
  return findings;
}

/** A static NodePool (`spec.replicas`) takes only `limits.nodes` and no weight. */
function staticPoolFindings(
  spec: Record<string, unknown>,
): ValidationFinding[] {
  if (spec.replicas === undefined) return [];
  const findings: ValidationFinding[] = [];
  const limits = isRecord(spec.limits) ? spec.limits : {};
  const extra = Object.keys(limits).filter(key => key !== 'nodes');
  if (extra.length > 0) {
    findings.push({
      path: 'spec.limits',
      rule: 'static-pool-limits',
      message: `only limits.nodes is supported on static NodePools (found ${extra.join(', ')})`,
    });
  }
  if (spec.weight !== undefined) {
    findings.push({
      path: 'spec.weight',
      rule: 'static-pool-weight',
      message: "'weight' is not supported on static NodePools",
    });
  }
  return findings;
}
