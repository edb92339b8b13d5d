import type { ClusterProfile } from '../cluster/types';
import { buildWorkloadPatch } from './workloadPatch';
import {
  asPatch,
  awsCluster,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';
import { strategicMerge } from './__testUtils__/strategicMerge';
import {
  describeSelectorChanges,
  existingSelectorPatch,
} from './existingSelectors';
import { fittingTerms } from './contradictingSelectors';
import type { NodeSelectorRequirement } from './nodePool';
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
