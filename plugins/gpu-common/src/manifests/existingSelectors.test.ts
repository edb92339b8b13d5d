import type { ClusterProfile } from '../cluster/types';
import { buildWorkloadPatch } from './workloadPatch';
import {
  asPatch,
  awsCluster,
  exclusiveT4Plan,
  migA100Plan,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';
import { strategicMerge } from './__testUtils__/strategicMerge';
import {
  describeSelectorChanges,
  existingSelectorPatch,
  withSelectorWarnings,
} from './existingSelectors';
import type { Plan } from '../planner/types';
import { fittingTerms } from './contradictingSelectors';
import type { NodeSelectorRequirement } from './nodeSelectorRequirement';
import { expressionSatisfiable } from '../scheduling/landingPools';
import type { PoolNodeShape } from '../scheduling/nodeShape';
import { viewWorkload } from './workloadShape';

const instanceFamilyG5 = {
  key: 'karpenter.k8s.aws/instance-family',
  operator: 'In',
  values: ['g5'],
};
const zoneA = {
  key: 'topology.kubernetes.io/zone',
  operator: 'In',
  values: ['eu-west-1a'],
};

/** A Deployment written for a v1alpha5 Provisioner `gpu` and a team's own node group. */
function staleDeployment(terms: unknown[]) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'llm-server', namespace: 'ml-team' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'llm-server' } },
      template: {
        metadata: { labels: { app: 'llm-server' } },
        spec: {
          nodeSelector: {
            'kubernetes.io/os': 'linux',
            'karpenter.sh/provisioner-name': 'gpu',
            intent: 'gpu-workloads',
            'nvidia.com/gpu.present': 'true',
            NodePool: 'gpu-ts',
          },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: terms,
              },
            },
          },
          containers: [
            {
              name: 'api',
              image: 'ghcr.io/acme/llm:2',
              resources: { limits: { 'nvidia.com/gpu': '1' } },
            },
          ],
        },
      },
    },
  };
}

function patchOf(object: unknown, cluster: ClusterProfile = awsCluster) {
  const plan = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
  const current = viewWorkload('Deployment', object);
  return {
    patch: buildWorkloadPatch(plan, cluster, {
      kind: 'Deployment',
      name: 'llm-server',
      manifestNamespace: 'ml-team',
      container: 'api',
      current,
    }) as any,
    selectors: existingSelectorPatch(plan, cluster, current),
  };
}

describe('existing selectors on the new pool', () => {
  it('removes exactly the nodeSelector entries and affinity expressions the pool never satisfies', () => {
    const object = staleDeployment([
      { matchExpressions: [instanceFamilyG5, zoneA] },
    ]);
    const { patch, selectors } = patchOf(object);
    const merged = strategicMerge(object, patch) as any;
    expect(() => validateAgainstSchema(merged)).not.toThrow();
    const podSpec = merged.spec.template.spec;
    expect(podSpec.nodeSelector).toEqual({
      'kubernetes.io/os': 'linux',
      'karpenter.sh/nodepool': 'gpu-t4-ts4',
    });
    expect(podSpec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [zoneA] }],
        },
      },
    });
    expect(selectors.changes.map(c => c.selector)).toEqual([
      'karpenter.sh/provisioner-name: gpu',
      'intent: gpu-workloads',
      'nvidia.com/gpu.present: true',
      'NodePool: gpu-ts',
      'karpenter.k8s.aws/instance-family In [g5]',
    ]);
    const notes = describeSelectorChanges(selectors.changes);
    expect(notes[4]).toContain('g4dn only');
    expect(notes[2]).toContain('GPU Feature Discovery');
  });

  it('leaves the affinity alone when one of its terms fits the pool', () => {
    const object = staleDeployment([
      { matchExpressions: [instanceFamilyG5] },
      {
        matchExpressions: [
          { ...instanceFamilyG5, values: ['g5', 'g4dn'] },
          zoneA,
        ],
      },
    ]);
    const { patch } = patchOf(object);
    expect(patch.spec.template.spec.affinity).toBeUndefined();
  });

  it('removes the requirement when none of its expressions fits', () => {
    const object = staleDeployment([
      { matchExpressions: [instanceFamilyG5] },
      {
        matchExpressions: [
          {
            key: 'node.kubernetes.io/instance-type',
            operator: 'In',
            values: ['g5.2xlarge'],
          },
        ],
      },
    ]);
    const { patch } = patchOf(object);
    expect(
      patch.spec.template.spec.affinity.nodeAffinity
        .requiredDuringSchedulingIgnoredDuringExecution,
    ).toBeNull();
  });

  it('keeps GPU Feature Discovery labels on nodes that run before their pods (static)', () => {
    const object = staleDeployment([]);
    const staticCluster: ClusterProfile = {
      ...awsCluster,
      provider: 'static',
    };
    const { selectors } = patchOf(object, staticCluster);
    expect(selectors.changes.map(c => c.selector)).toEqual([
      'karpenter.sh/provisioner-name: gpu',
      'intent: gpu-workloads',
      'NodePool: gpu-ts',
    ]);
  });
});

describe('expressionSatisfiable, as the patch judges an expression', () => {
  const shape: PoolNodeShape = {
    pool: 'gpu',
    kind: 'NodeFeatureRule',
    labels: { family: 'g4dn' },
    requirements: [
      { key: 'zone', operator: 'Exists' },
      { key: 'count', operator: 'In', values: ['1', '4'] },
    ],
    launchesWellKnown: false,
    taints: [],
  };
  const fits = (e: { key: string; operator: string; values?: string[] }) =>
    expressionSatisfiable(shape, e as NodeSelectorRequirement);
  it.each([
    [{ key: 'family', operator: 'NotIn', values: ['g4dn'] }, false],
    [{ key: 'family', operator: 'NotIn', values: ['g5'] }, true],
    [{ key: 'missing', operator: 'NotIn', values: ['x'] }, true],
    [{ key: 'missing', operator: 'Exists' }, false],
    [{ key: 'family', operator: 'DoesNotExist' }, false],
    [{ key: 'missing', operator: 'DoesNotExist' }, true],
    [{ key: 'count', operator: 'Gt', values: ['2'] }, true],
    [{ key: 'count', operator: 'Lt', values: ['1'] }, false],
    [{ key: 'zone', operator: 'In', values: ['a'] }, true],
  ])('%j → %s', (expression, expected) => {
    expect(fits(expression)).toBe(expected);
  });

  it('keeps matchFields terms as written', () => {
    const terms = [
      {
        matchExpressions: [{ key: 'family', operator: 'In', values: ['g5'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
      },
    ];
    expect(fittingTerms(fits, terms)).toEqual([
      { matchFields: terms[0].matchFields },
    ]);
  });
});

describe('the GPU product a workload selects, on nodes that run before their pods', () => {
  const capiCluster: ClusterProfile = {
    ...awsCluster,
    provider: 'cluster-api',
    migStrategy: 'single',
  };
  const staticCluster: ClusterProfile = { ...awsCluster, provider: 'static' };
  const selectingProduct = (product: string) =>
    viewWorkload('Deployment', {
      kind: 'Deployment',
      spec: {
        template: {
          spec: {
            nodeSelector: { 'nvidia.com/gpu.product': product },
            containers: [{ name: 'api' }],
          },
        },
      },
    });
  const onModel = (plan: Plan, gpuModel: string): Plan =>
    asPatch(
      { ...plan, pool: { ...plan.pool, gpuModel } },
      'Deployment',
      'llm-server',
    );
  const removed = (plan: Plan, cluster: ClusterProfile, product: string) =>
    existingSelectorPatch(plan, cluster, selectingProduct(product)).changes;

  it("removes a T4 product selector from a workload moved to an A100 pool, naming the pool's products", () => {
    const a100 = onModel(exclusiveT4Plan, 'a100-40gb');
    const changes = removed(a100, staticCluster, 'Tesla-T4');
    expect(changes.map(c => c.selector)).toEqual([
      'nvidia.com/gpu.product: Tesla-T4',
    ]);
    expect(changes[0].reason).toContain(
      'NVIDIA-A100-SXM4-40GB, NVIDIA-A100-PCIE-40GB only',
    );
    expect(removed(a100, staticCluster, 'NVIDIA-A100-PCIE-40GB')).toEqual([]);
  });

  it('knows the MIG single strategy suffix and the SHARED suffix of an unrenamed shared resource', () => {
    const mig = asPatch(migA100Plan, 'Deployment', 'llm-server');
    expect(removed(mig, capiCluster, 'NVIDIA-A100-SXM4-40GB')).toHaveLength(1);
    expect(
      removed(mig, capiCluster, 'NVIDIA-A100-SXM4-40GB-MIG-3g.20gb'),
    ).toEqual([]);
    const renamed = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
    expect(removed(renamed, capiCluster, 'Tesla-T4')).toEqual([]);
    const unrenamed = { ...renamed, resourceName: 'nvidia.com/gpu' };
    expect(removed(unrenamed, capiCluster, 'Tesla-T4')).toHaveLength(1);
    expect(removed(unrenamed, capiCluster, 'Tesla-T4-SHARED')).toEqual([]);
  });

  it("says so when the catalog does not know the model's product name", () => {
    const own = onModel(exclusiveT4Plan, 'acme-gpu-9000');
    const plan = withSelectorWarnings(
      own,
      staticCluster,
      selectingProduct('ACME-9000'),
    );
    expect(plan.warnings.join('\n')).toContain(
      'the GPU Feature Discovery product name of model acme-gpu-9000 is not known',
    );
  });
});
