/**
 * The workload patch and the scheduling model agree: an existing workload
 * with stale and valid selectors, patched for each provider's plan of every
 * sharing mode, keeps exactly the selectors the model finds satisfiable on
 * the planned pool's nodes (read from the rendered pool objects, as verify
 * reads them), and its patched pods land on that pool and on no other.
 */
import { strategicMerge } from '../manifests/__testUtils__/strategicMerge';
import { asPatch } from '../manifests/__testUtils__/fixtures';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { buildWorkloadPatch } from '../manifests/workloadPatch';
import { viewWorkload } from '../manifests/workloadShape';
import { expressionSatisfiable, landingPools } from './landingPools';
import { podSchedulingOf } from './podScheduling';
import { PROVIDERS, planEveryMode } from './__testUtils__/plannedPools';

/** A team's own selectors: some every pool satisfies, some none does, some only a running node has. */
const NODE_SELECTOR: Record<string, string> = {
  'kubernetes.io/os': 'linux',
  'beta.kubernetes.io/arch': 'amd64',
  'karpenter.sh/provisioner-name': 'gpu',
  intent: 'gpu-workloads',
  'nvidia.com/gpu.present': 'true',
  'karpenter.k8s.aws/instance-family': 'g5',
};
const EXPRESSIONS: NodeSelectorRequirement[] = [
  { key: 'karpenter.sh/capacity-type', operator: 'NotIn', values: ['spot'] },
  { key: 'topology.kubernetes.io/zone', operator: 'Exists' },
  {
    key: 'node.kubernetes.io/instance-type',
    operator: 'In',
    values: ['p5.48xlarge'],
  },
  { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
];

function staleDeployment() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'llm-server', namespace: 'ml-team' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'llm-server' } },
      template: {
        metadata: { labels: { app: 'llm-server' } },
        spec: {
          nodeSelector: { ...NODE_SELECTOR },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [...EXPRESSIONS] }],
              },
            },
          },
          containers: [{ name: 'api', image: 'ghcr.io/acme/llm:2' }],
        },
      },
    },
  };
}

describe('the patch keeps exactly what the model accepts, and the patched workload lands on its planned pool', () => {
  for (const [provider, cluster, catalog] of PROVIDERS) {
    it(`${provider}: every sharing mode it allows`, () => {
      const planned = planEveryMode(cluster, catalog);
      expect(planned.length).toBeGreaterThanOrEqual(4);
      const shapes = planned.map(p => p.shape);
      for (const { thePlan, shape } of planned) {
        const object = staleDeployment();
        const patch = buildWorkloadPatch(
          asPatch(thePlan, 'Deployment', 'llm-server'),
          cluster,
          {
            kind: 'Deployment',
            name: 'llm-server',
            manifestNamespace: 'ml-team',
            container: 'api',
            current: viewWorkload('Deployment', object),
          },
        );
        const podSpec = (strategicMerge(object, patch) as any).spec.template
          .spec;
        const accepted = ([key, value]: [string, string]) =>
          expressionSatisfiable(shape, {
            key,
            operator: 'In',
            values: [value],
          });
        const kept = Object.entries(NODE_SELECTOR).filter(([key]) =>
          Object.hasOwn(podSpec.nodeSelector, key),
        );
        expect(kept).toEqual(Object.entries(NODE_SELECTOR).filter(accepted));
        const keptExpressions = EXPRESSIONS.filter(e =>
          expressionSatisfiable(shape, e),
        );
        expect(
          podSpec.affinity?.nodeAffinity
            ?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
        ).toEqual(
          keptExpressions.length > 0
            ? { nodeSelectorTerms: [{ matchExpressions: keptExpressions }] }
            : null,
        );
        // Not vacuous: stale selectors went, valid ones stayed.
        expect(podSpec.nodeSelector.intent).toBeUndefined();
        // EC2's family: not among the pool's instance types, on no Azure node.
        expect(
          podSpec.nodeSelector['karpenter.k8s.aws/instance-family'],
        ).toBeUndefined();
        expect(podSpec.nodeSelector['kubernetes.io/os']).toBe('linux');
        const landing = landingPools(podSchedulingOf(podSpec), shapes);
        expect({ mode: thePlan.sharing.mode, pools: landing.pools }).toEqual({
          mode: thePlan.sharing.mode,
          pools: [thePlan.pool.name],
        });
      }
    });
  }
});
