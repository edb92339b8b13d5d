/**
 * Real requests through the real planner and the built-in catalog, rendered
 * and checked end to end: every object against its schema, every rule check
 * clean, and the cross-object links (labels naming config keys, overlays
 * naming the pool, workloads tolerating the pool taint) consistent.
 */
import { builtinCatalog } from '../catalog/builtin';
import { sharingModeUnavailable } from '../cluster/capabilities';
import { defaultClusterProfile } from '../cluster/defaults';
import type { ClusterProfile } from '../cluster/types';
import { plan } from '../planner/plan';
import { parseGpuRequest } from '../request/schema';
import type { SharingMode } from '../request/types';
import { checkDevicePluginConfig } from '../validation/devicePluginConfig';
import { checkKarpenterLabels } from '../validation/karpenterLabels';
import { checkMigPartedConfig } from '../validation/migPartedConfig';
import {
  checkNodePoolRules,
  checkTolerationsMatchTaints,
} from '../validation/nodePoolRules';
import { buildManifests } from './buildManifests';
import { existingWorkloadFixture } from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';
import { strategicMerge } from './__testUtils__/strategicMerge';
import type { KubernetesObject } from './types';

function request(
  name: string,
  sharing: SharingMode,
  model: string,
  gpu: Record<string, unknown>,
  existing?: { kind: 'Deployment' | 'StatefulSet'; name: string },
) {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml-team' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model, sharing, ...gpu },
      workload: existing
        ? { existing }
        : { image: 'ghcr.io/acme/inference:1.0.0' },
      capacityTypes: ['on-demand'],
    },
  });
}

const requests = [
  request('t4-exclusive', 'exclusive', 't4', { replicas: 2, vramGiB: 12 }),
  request('a10g-two-gpus', 'exclusive', 'a10g', {
    replicas: 1,
    vramGiB: 40,
    gpusPerReplica: 2,
  }),
  request('t4-ts', 'time-slicing', 't4', {
    replicas: 6,
    vramGiB: 3,
    slicesPerGpu: 4,
  }),
  request('l4-mps', 'mps', 'l4', { replicas: 5, vramGiB: 4 }),
  request('a100-mig', 'mig', 'a100-40gb', { replicas: 3, vramGiB: 18 }),
  request('h100-mig-small', 'mig', 'h100-80gb', { replicas: 10, vramGiB: 8 }),
  request('l4-dra', 'dra', 'l4', { replicas: 2, vramGiB: 16 }),
  request(
    'patched',
    'time-slicing',
    'l4',
    { replicas: 2, vramGiB: 6 },
    { kind: 'StatefulSet', name: 'llm' },
  ),
  request(
    'patched-dra',
    'dra',
    'l4',
    { replicas: 1, vramGiB: 6 },
    { kind: 'Deployment', name: 'llm' },
  ),
];

const clusters: ClusterProfile[] = [
  { ...defaultClusterProfile, name: 'prod', generateNodeClass: true },
  { ...defaultClusterProfile, name: 'single', migStrategy: 'single' },
  // Without the NodeOverlay gate: whole GPUs only (MIG single, exclusive, DRA).
  {
    ...defaultClusterProfile,
    name: 'legacy',
    karpenterVersion: '1.8.0',
    nodeOverlay: false,
    migStrategy: 'single',
  },
];

describe('plan() -> buildManifests() with the built-in catalog', () => {
  for (const cluster of clusters) {
    // What the cluster cannot run is refused (tested below): MPS under the
    // mixed MIG strategy, renamed resources without the NodeOverlay gate.
    const plannable = requests.filter(
      r => !sharingModeUnavailable(cluster, r.spec.gpu.sharing),
    );
    for (const gpuRequest of plannable) {
      const label = `${gpuRequest.metadata.name} (${gpuRequest.spec.gpu.sharing}) on ${cluster.name}`;
      it(`${label}: schema-valid, rule-clean and consistent`, () => {
        const thePlan = plan(gpuRequest, builtinCatalog, cluster);
        const existing = gpuRequest.spec.workload.existing
          ? existingWorkloadFixture(thePlan)
          : undefined;
        const set = buildManifests(thePlan, cluster, {
          catalog: builtinCatalog,
          existing: existing?.target,
        });
        const model = builtinCatalog.models.find(
          m => m.id === thePlan.pool.gpuModel,
        )!;

        const nodePool = set.pool.objects[0] as any;
        expect(nodePool.kind).toBe('NodePool');
        expect(nodePool.metadata.name).toBe(thePlan.pool.name);
        for (const object of set.pool.objects) {
          expect(() => validateAgainstSchema(object)).not.toThrow();
          expect(
            checkKarpenterLabels(object, {
              karpenterVersion: cluster.karpenterVersion,
            }),
          ).toEqual([]);
        }
        expect(
          checkNodePoolRules(nodePool, {
            karpenterVersion: cluster.karpenterVersion,
          }),
        ).toEqual([]);
        expect(set.pool.objects.some(o => o.kind === 'EC2NodeClass')).toBe(
          cluster.generateNodeClass,
        );

        const overlays = set.pool.objects.filter(
          o => o.kind === 'NodeOverlay',
        ) as any[];
        // Every MIG pool gets overlays too: under the single strategy they
        // override nvidia.com/gpu with the instances (nodeOverlay.ts).
        const shared = ['time-slicing', 'mps', 'mig'].includes(
          thePlan.sharing.mode,
        );
        expect(overlays.length).toBe(
          cluster.nodeOverlay && shared
            ? new Set(thePlan.pool.gpuCounts).size
            : 0,
        );
        for (const overlay of overlays) {
          expect(overlay.spec.requirements[0]).toEqual({
            key: 'karpenter.sh/nodepool',
            operator: 'In',
            values: [thePlan.pool.name],
          });
          const gpus = Number(overlay.spec.requirements[1].values[0]);
          const perGpu =
            thePlan.sharing.mode === 'mig'
              ? thePlan.sharing.migLayout![thePlan.sharing.migProfile!]
              : thePlan.sharing.slicesPerGpu!;
          expect(overlay.spec.capacity[thePlan.resourceName]).toBe(
            String(perGpu * gpus),
          );
        }

        const labels = nodePool.spec.template.metadata.labels;
        const isTsOrMps = ['time-slicing', 'mps'].includes(
          thePlan.sharing.mode,
        );
        const isMig = thePlan.sharing.mode === 'mig';
        // The pool labels name exactly the config keys emitted (an unknown key crash-loops the plugin).
        expect(Boolean(set.devicePluginConfig)).toBe(isTsOrMps);
        expect(labels['nvidia.com/device-plugin.config']).toBe(
          set.devicePluginConfig?.name,
        );
        expect(
          set.devicePluginConfig
            ? checkDevicePluginConfig(set.devicePluginConfig.config, {
                mpsMaxReplicas: model.mpsMaxReplicas,
              })
            : [],
        ).toEqual([]);
        expect(Boolean(set.migConfig)).toBe(isMig);
        expect(labels['nvidia.com/mig.config']).toBe(set.migConfig?.name);
        expect(
          set.migConfig
            ? checkMigPartedConfig({
                version: 'v1',
                'mig-configs': { [set.migConfig.name]: set.migConfig.entries },
              })
            : [],
        ).toEqual([]);

        expect(set.workload.mode).toBe(
          gpuRequest.spec.workload.existing ? 'patch' : 'new',
        );
        const fullObjects = set.workload.objects.map(object =>
          set.workload.mode === 'patch' &&
          object.kind !== 'ResourceClaimTemplate'
            ? (strategicMerge(existing!.object, object) as KubernetesObject)
            : object,
        );
        for (const object of fullObjects) {
          expect(() => validateAgainstSchema(object)).not.toThrow();
        }
        const isDra = thePlan.sharing.mode === 'dra';
        expect(fullObjects.map(o => o.kind)).toEqual(
          isDra
            ? [
                'ResourceClaimTemplate',
                gpuRequest.spec.workload.existing?.kind ?? 'Deployment',
              ]
            : [gpuRequest.spec.workload.existing?.kind ?? 'Deployment'],
        );
        const pod = (fullObjects[fullObjects.length - 1] as any).spec.template
          .spec;
        expect(pod.nodeSelector).toEqual({
          'karpenter.sh/nodepool': thePlan.pool.name,
        });
        expect(
          checkTolerationsMatchTaints(
            nodePool.spec.template.spec.taints,
            pod.tolerations,
          ),
        ).toEqual([]);
        expect(pod.resourceClaims?.length ?? 0).toBe(isDra ? 1 : 0);
        expect(
          pod.containers
            .map((c: any) => c.resources?.limits?.[thePlan.resourceName])
            .filter(Boolean),
        ).toEqual(isDra ? [] : [String(thePlan.resourcePerReplica)]);
      });
    }
  }

  it('refuses what a cluster cannot run with the rule the request form shows', () => {
    const refused = clusters.flatMap(cluster =>
      requests.flatMap(r => {
        const unavailable = sharingModeUnavailable(cluster, r.spec.gpu.sharing);
        return unavailable ? [{ cluster, r, unavailable }] : [];
      }),
    );
    expect(
      refused.map(({ cluster, r, unavailable }) => [
        cluster.name,
        r.spec.gpu.sharing,
        unavailable.rule,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['prod', 'mps', 'mps-mig-strategy'],
        ['legacy', 'time-slicing', 'nodeoverlay-gate-off'],
        ['legacy', 'mps', 'nodeoverlay-gate-off'],
      ]),
    );
    for (const { cluster, r, unavailable } of refused) {
      expect(() => plan(r, builtinCatalog, cluster)).toThrow(
        unavailable.reason,
      );
    }
    // MIG under the single strategy asks for whole GPUs: no gate needed.
    expect(sharingModeUnavailable(clusters[2], 'mig')).toBeUndefined();
    expect(sharingModeUnavailable(clusters[2], 'exclusive')).toBeUndefined();
  });

  it('MPS where the ClusterPolicy MIG strategy is mixed: the planner refuses, the rule check reports such a config', () => {
    const [mixed, single] = clusters;
    expect(mixed.migStrategy).toBe('mixed');
    const mpsRequest = request('l4-mps', 'mps', 'l4', {
      replicas: 5,
      vramGiB: 4,
    });
    expect(() => plan(mpsRequest, builtinCatalog, mixed)).toThrow(
      /MIG strategy "mixed"/,
    );
    const set = buildManifests(
      plan(mpsRequest, builtinCatalog, single),
      single,
    );
    // Clean on its own (flags.migStrategy none) ...
    expect(checkDevicePluginConfig(set.devicePluginConfig!.config)).toEqual([]);
    // ... but under the operator's MIG_STRATEGY=mixed env it would not start.
    expect(
      checkDevicePluginConfig(set.devicePluginConfig!.config, {
        effectiveMigStrategy: mixed.migStrategy,
      }).map(f => f.rule),
    ).toEqual(['mps-mig-mixed']);
  });

  it('MIG entries carry the PCI filter of the model (1g.10gb exists on several GPUs)', () => {
    const cluster = clusters[0];
    const thePlan = plan(
      request('h100-mig-small', 'mig', 'h100-80gb', {
        replicas: 10,
        vramGiB: 8,
      }),
      builtinCatalog,
      cluster,
    );
    const set = buildManifests(thePlan, cluster, { catalog: builtinCatalog });
    const model = builtinCatalog.models.find(m => m.id === 'h100-80gb')!;
    expect(set.migConfig?.entries[0]['device-filter']).toEqual(
      model.mig!.pciDeviceIds,
    );
    expect(set.migConfig?.entries[0]['mig-devices']).toEqual(
      thePlan.sharing.migLayout,
    );
  });
});
