/**
 * A GPU Operator installed from plain manifests rather than by a Helm tool:
 * the objects `helm template` renders from NVIDIA's chart, applied as they
 * are — e.g. Cluster API on AWS puts them in a ConfigMap a ClusterResourceSet
 * applies to every GPU cluster (kubernetes-sigs/cluster-api-provider-aws
 * v2.11.1 `test/e2e/data/infrastructure-aws/withoutclusterclass/kustomize_sources/gpu/`).
 * The operator reads its `ClusterPolicy` (`nvidia.com/v1`), whose spec is
 * what the chart renders from its values under the same keys
 * (`devicePlugin.config.name`, `migManager.enabled`, `mig.strategy`,
 * `daemonsets.tolerations`; NVIDIA/gpu-operator
 * `deployments/gpu-operator/templates/clusterpolicy.yaml`), so the policy is
 * read as the release's one values source; its operands run in the
 * namespace of the operator's Deployment.
 */
import { getIn } from '../../../repo/yamlObjects';
import { stringField, type FoundObject, type HelmRelease } from './helmRelease';

/** The chart whose operator reads a ClusterPolicy. */
export const CLUSTER_POLICY_CHART = 'gpu-operator';

export function isGpuOperatorClusterPolicy(
  object: FoundObject['object'],
): boolean {
  return (
    object.kind === 'ClusterPolicy' &&
    String(object.apiVersion).startsWith('nvidia.com/')
  );
}

/** The operator's image in a Deployment's containers, e.g. `nvcr.io/nvidia/gpu-operator:v22.9.1`. */
function operatorImage(object: FoundObject['object']): string | undefined {
  if (object.kind !== 'Deployment') return undefined;
  const containers = getIn(object, 'spec', 'template', 'spec', 'containers');
  return (Array.isArray(containers) ? containers : [])
    .map(c => stringField(getIn(c, 'image')))
    .find(image => image && /(^|\/)gpu-operator(:|@|$)/.test(image));
}

/**
 * The release a ClusterPolicy stands for: installed where the operator's
 * Deployment of the same file runs, at that operator's version (the chart
 * and the operator share their version numbers).
 */
export function clusterPolicyRelease(
  policy: FoundObject,
  sameFile: FoundObject[],
): HelmRelease {
  const { object, file } = policy;
  const operator = sameFile.find(o => operatorImage(o.object));
  const image = operator ? operatorImage(operator.object) : undefined;
  const name = object.metadata.name;
  return {
    chart: CLUSTER_POLICY_CHART,
    file,
    declaredBy: `the GPU Operator's ClusterPolicy \`${name}\` (plain manifests)`,
    version: image?.match(/:([^:@/]+)$/)?.[1],
    namespace: operator
      ? stringField(getIn(operator.object, 'metadata', 'namespace'))
      : undefined,
    layers: [
      {
        where: `\`spec\` of ClusterPolicy \`${name}\` in \`${file}\``,
        form: 'values',
        content: { values: getIn(object, 'spec') ?? {} },
      },
    ],
  };
}
