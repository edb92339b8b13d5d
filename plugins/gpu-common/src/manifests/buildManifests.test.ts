import { viewWorkload } from './workloadShape';
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { checkDevicePluginConfig } from '../validation/devicePluginConfig';
import { checkKarpenterLabels } from '../validation/karpenterLabels';
import { checkMigPartedConfig } from '../validation/migPartedConfig';
import {
  checkNodePoolRules,
  checkTolerationsMatchTaints,
} from '../validation/nodePoolRules';
import { buildManifests } from './buildManifests';
import {
  asPatch,
  existingWorkloadFixture,
  awsCluster,
  fixturePlans,
  plainCluster,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';
import { strategicMerge } from './__testUtils__/strategicMerge';
import type { KubernetesObject, ManifestSet } from './types';

const kinds = (objects: KubernetesObject[]) =>
  objects.map(o => `${o.kind}/${o.metadata.name}`);

/** Every object against its real schema, plus every rule check: the whole set must be clean. */
function expectValid(set: ManifestSet, cluster: ClusterProfile, plan: Plan) {
  for (const object of set.pool.objects) {
    expect(() => validateAgainstSchema(object)).not.toThrow();
    expect(
      checkKarpenterLabels(object, {
        karpenterVersion: cluster.karpenterVersion,
      }),
    ).toEqual([]);
    if (object.kind === 'NodePool') {
      expect(
        checkNodePoolRules(object, {
          karpenterVersion: cluster.karpenterVersion,
        }),
      ).toEqual([]);
    }
  }
  for (const object of set.workload.objects) {
    const full =
      set.workload.mode === 'patch' && object.kind !== 'ResourceClaimTemplate'
        ? (strategicMerge(
            existingWorkloadFixture(plan).object,
            object,
          ) as KubernetesObject)
        : object;
    expect(() => validateAgainstSchema(full)).not.toThrow();
    if (full.kind !== 'ResourceClaimTemplate') {
      const nodePool = set.pool.objects.find(o => o.kind === 'NodePool') as any;
      const podSpec = (full as any).spec.template.spec;
      if (nodePool) {
        expect(
          checkTolerationsMatchTaints(
            nodePool.spec.template.spec.taints,
            podSpec.tolerations,
          ),
        ).toEqual([]);
      }
      expect(podSpec.nodeSelector).toEqual({
        'karpenter.sh/nodepool': plan.pool.name,
      });
    }
  }
  if (set.devicePluginConfig) {
    expect(checkDevicePluginConfig(set.devicePluginConfig.config)).toEqual([]);
  }
  if (set.migConfig) {
    expect(
      checkMigPartedConfig({
        version: 'v1',
        'mig-configs': { [set.migConfig.name]: set.migConfig.entries },
      }),
    ).toEqual([]);
  }
}

describe('buildManifests', () => {
  const clusters: [string, ClusterProfile][] = [
    ['overlay + EC2NodeClass', awsCluster],
    ['no overlay, bring-your-own node class', plainCluster],
  ];
  const workloads: [string, (plan: Plan) => Plan][] = [
    ['new', plan => plan],
    ['patch Deployment', plan => asPatch(plan, 'Deployment', 'existing-app')],
    ['patch StatefulSet', plan => asPatch(plan, 'StatefulSet', 'existing-db')],
  ];
  for (const [mode, fixture] of Object.entries(fixturePlans)) {
    for (const [clusterLabel, cluster] of clusters) {
      for (const [workloadLabel, toWorkload] of workloads) {
        it(`${mode} / ${clusterLabel} / ${workloadLabel}: every object is schema-valid and rule-clean`, () => {
          const plan = toWorkload(fixture);
          const set = buildManifests(plan, cluster, {
            existing: plan.request.spec.workload.existing
              ? existingWorkloadFixture(plan).target
              : undefined,
          });
          expect(set.pool.objects.length).toBeGreaterThan(0);
          expect(set.workload.objects.length).toBeGreaterThan(0);
          expectValid(set, cluster, plan);
        });
      }
    }
  }

  it('exclusive: NodePool + EC2NodeClass, a Deployment, no sharing configs', () => {
    const set = buildManifests(fixturePlans.exclusive, awsCluster);
    expect(kinds(set.pool.objects)).toEqual([
      'NodePool/gpu-t4',
      'EC2NodeClass/gpu',
    ]);
    expect(set.pool.name).toBe('gpu-t4');
    expect(set.devicePluginConfig).toBeUndefined();
    expect(set.migConfig).toBeUndefined();
    expect(set.workload).toMatchObject({
      namespace: 'ml-team',
      component: 't4-exclusive',
      mode: 'new',
    });
    expect(kinds(set.workload.objects)).toEqual(['Deployment/t4-exclusive']);
  });

  it('time-slicing: NodePool + one NodeOverlay per GPU count + EC2NodeClass, and the named device-plugin config', () => {
    const set = buildManifests(fixturePlans['time-slicing'], awsCluster);
    expect(kinds(set.pool.objects)).toEqual([
      'NodePool/gpu-t4-ts4',
      'NodeOverlay/gpu-t4-ts4-1gpu',
      'NodeOverlay/gpu-t4-ts4-4gpu',
      'EC2NodeClass/gpu',
    ]);
    expect(set.devicePluginConfig?.name).toBe('ts-4-1a2b3c4d');
    // The pool's label names exactly the config key we emit (an unknown key crash-loops the plugin).
    const pool = set.pool.objects[0] as any;
    expect(
      pool.spec.template.metadata.labels['nvidia.com/device-plugin.config'],
    ).toBe(set.devicePluginConfig?.name);
  });

  it('mps: overlays and an MPS device-plugin config', () => {
    const set = buildManifests(fixturePlans.mps, plainCluster);
    expect(kinds(set.pool.objects)).toEqual(['NodePool/gpu-l4-mps4']);
    expect(set.devicePluginConfig?.config.sharing?.mps?.resources).toEqual([
      { name: 'nvidia.com/gpu', replicas: 4 },
    ]);
  });

  it('mig: overlay, mig-parted entry named like the pool label', () => {
    const set = buildManifests(fixturePlans.mig, awsCluster);
    expect(kinds(set.pool.objects)).toEqual([
      'NodePool/gpu-a100-40gb-mig-3g.20gb',
      'NodeOverlay/gpu-a100-40gb-mig-3g.20gb-8gpu',
      'EC2NodeClass/gpu',
    ]);
    expect(set.devicePluginConfig).toBeUndefined();
    expect(set.migConfig).toEqual({
      name: 'all-3g.20gb',
      entries: [
        {
          devices: 'all',
          'mig-enabled': true,
          'mig-devices': { '3g.20gb': 2 },
        },
      ],
    });
    const pool = set.pool.objects[0] as any;
    expect(pool.spec.template.metadata.labels['nvidia.com/mig.config']).toBe(
      set.migConfig?.name,
    );
  });

  it('dra: static NodePool, ResourceClaimTemplate before the Deployment that references it', () => {
    const set = buildManifests(fixturePlans.dra, awsCluster);
    expect(kinds(set.pool.objects)).toEqual([
      'NodePool/gpu-l4-dra',
      'EC2NodeClass/gpu',
    ]);
    expect(kinds(set.workload.objects)).toEqual([
      'ResourceClaimTemplate/l4-dra-gpu',
      'Deployment/l4-dra',
    ]);
    const deployment = set.workload.objects[1] as any;
    expect(
      deployment.spec.template.spec.resourceClaims[0].resourceClaimTemplateName,
    ).toBe(set.workload.objects[0].metadata.name);
  });

  it('patch mode: one patch object named after the existing workload', () => {
    const set = buildManifests(
      asPatch(fixturePlans['time-slicing'], 'StatefulSet', 'llm'),
      awsCluster,
      {
        existing: {
          kind: 'StatefulSet',
          name: 'llm',
          container: 'server',
          current: viewWorkload('StatefulSet', {
            metadata: { name: 'llm' },
            spec: {
              replicas: 1,
              template: {
                spec: { containers: [{ name: 'server', image: 'x:1' }] },
              },
            },
          }),
        },
      },
    );
    expect(set.workload.mode).toBe('patch');
    expect(set.workload.component).toBe('t4-shared');
    expect(kinds(set.workload.objects)).toEqual(['StatefulSet/llm']);
    expect(
      (set.workload.objects[0] as any).spec.template.spec.containers[0].name,
    ).toBe('server');
  });

  it('refuses to patch an existing workload it was not shown', () => {
    expect(() =>
      buildManifests(
        asPatch(fixturePlans['time-slicing'], 'Deployment', 'llm'),
        awsCluster,
      ),
    ).toThrow(/read it from the repository first/);
  });

  it('static clusters get no Karpenter objects', () => {
    const set = buildManifests(fixturePlans.exclusive, {
      ...awsCluster,
      provider: 'static',
    });
    expect(set.pool.objects).toEqual([]);
    expect(kinds(set.workload.objects)).toEqual(['Deployment/t4-exclusive']);
  });

  it('is deterministic', () => {
    for (const plan of Object.values(fixturePlans)) {
      expect(JSON.stringify(buildManifests(plan, awsCluster))).toBe(
        JSON.stringify(buildManifests(plan, awsCluster)),
      );
    }
  });
});
