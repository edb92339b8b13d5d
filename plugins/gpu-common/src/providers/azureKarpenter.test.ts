/**
 * The same requests as on AWS, planned with the built-in catalog on an AKS
 * cluster with Karpenter's Azure provider and rendered: every object checked
 * against the CRDs Azure's provider v1.14.2 ships (its own `karpenter.sh`
 * copies carry Azure's label rules) and the AKSNodeClass CRD.
 */
import { builtinCatalog } from '../catalog/builtin';
import { sharingModeUnavailable } from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { buildManifests } from '../manifests/buildManifests';
import {
  celRules,
  validateAgainstCrd,
} from '../manifests/__testUtils__/crdSchemas';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import type { SharingMode } from '../request/types';

const CRD_FILES: Record<string, string> = {
  NodePool: 'azure-v1.14.2_karpenter.sh_nodepools.yaml',
  NodeOverlay: 'azure-v1.14.2_karpenter.sh_nodeoverlays.yaml',
  AKSNodeClass: 'azure-v1.14.2_karpenter.azure.com_aksnodeclasses.yaml',
};

const aks = resolveClusterProfile({
  name: 'aks-weu',
  provider: 'azure-karpenter',
  region: 'westeurope',
  generateNodeClass: true,
});
const aksSingle = resolveClusterProfile({
  name: 'aks-single',
  provider: 'azure-karpenter',
  migStrategy: 'single',
});

/** The labels under karpenter.azure.com a NodePool requirement may use (Azure's CEL rule). */
function allowedAzureLabels(): string[] {
  const rule = celRules(CRD_FILES.NodePool, 'karpenter.sh/v1', 'NodePool').find(
    r => r.includes('karpenter.azure.com/sku-gpu-count'),
  );
  return [...(rule ?? '').matchAll(/"(karpenter\.azure\.com\/[^"]+)"/g)].map(
    m => m[1],
  );
}

const requests: Array<[string, SharingMode, Record<string, unknown>]> = [
  ['t4', 'exclusive', { replicas: 2, vramGiB: 12 }],
  ['t4', 'time-slicing', { replicas: 6, vramGiB: 3, slicesPerGpu: 4 }],
  ['t4', 'mps', { replicas: 5, vramGiB: 3 }],
  ['a100-80gb', 'mig', { replicas: 3, vramGiB: 18 }],
  ['h100-nvl', 'mig', { replicas: 2, vramGiB: 40 }],
  ['v100', 'exclusive', { replicas: 1, vramGiB: 14 }],
  ['t4', 'dra', { replicas: 2, vramGiB: 8 }],
];

describe('AKS with Karpenter: plan and render', () => {
  it("references the provider's AKSNodeClass unless the profile names another", () => {
    expect(aks.nodeClass).toEqual({
      group: 'karpenter.azure.com',
      kind: 'AKSNodeClass',
      name: 'gpu',
    });
  });

  for (const cluster of [aks, aksSingle]) {
    for (const [model, sharing, gpu] of requests) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: Azure sizes, Azure labels, valid against Azure's CRDs`, () => {
        const thePlan = plan(
          gpuRequest({
            model,
            sharing,
            ...gpu,
            gpusPerReplica: sharing === 'exclusive' ? 1 : undefined,
          }),
          builtinCatalog,
          cluster,
        );
        const set = buildManifests(thePlan, cluster, {
          catalog: builtinCatalog,
        });
        const [nodePool, ...rest] = set.pool.objects as any[];

        // Azure sizes of the model, priced from Azure's table.
        const sizes = builtinCatalog.instanceTypes.filter(
          t => t.provider === 'azure' && t.gpuModel === model,
        );
        expect(thePlan.pool.instanceTypes.length).toBeGreaterThan(0);
        for (const name of thePlan.pool.instanceTypes) {
          expect(sizes.map(s => s.name)).toContain(name);
        }
        const requirements = nodePool.spec.template.spec.requirements;
        expect(requirements[0]).toEqual({
          key: 'karpenter.azure.com/sku-gpu-manufacturer',
          operator: 'In',
          values: ['nvidia'],
        });
        expect(nodePool.spec.template.spec.nodeClassRef).toEqual({
          group: 'karpenter.azure.com',
          kind: 'AKSNodeClass',
          name: 'gpu',
        });
        // No AWS key anywhere; every Azure key one Azure's rule allows.
        const keys = [
          ...requirements.map((r: { key: string }) => r.key),
          ...rest.flatMap((o: any) =>
            (o.spec.requirements ?? []).map((r: { key: string }) => r.key),
          ),
        ];
        expect(keys.filter(k => k.includes('karpenter.k8s.aws'))).toEqual([]);
        const allowed = allowedAzureLabels();
        expect(allowed).toContain('karpenter.azure.com/sku-gpu-count');
        for (const key of keys.filter(k =>
          k.startsWith('karpenter.azure.com/'),
        )) {
          expect(allowed).toContain(key);
        }

        for (const object of set.pool.objects) {
          expect(() =>
            validateAgainstCrd(object as any, CRD_FILES[object.kind]),
          ).not.toThrow();
        }
        // Overlays count the GPUs with Azure's label.
        for (const overlay of rest.filter(o => o.kind === 'NodeOverlay')) {
          expect(overlay.spec.requirements[1].key).toBe(
            'karpenter.azure.com/sku-gpu-count',
          );
        }
        expect(rest.some(o => o.kind === 'AKSNodeClass')).toBe(
          cluster.generateNodeClass,
        );
        for (const object of set.workload.objects) {
          expect(() => validateAgainstSchema(object)).not.toThrow();
        }
      });
    }
  }

  it('plans the cheapest Azure size: a T4 exclusive replica costs what NC4as_T4_v3 costs', () => {
    const thePlan = plan(
      gpuRequest({ model: 't4', replicas: 1, vramGiB: 8 }),
      builtinCatalog,
      aks,
    );
    expect(thePlan.pool.instanceTypes).toContain('Standard_NC4as_T4_v3');
    // One whole node of $0.526/h for 730 h a month.
    expect(thePlan.cost.usdPerMonth).toBe(383.98);
  });

  it('the AKSNodeClass CRD check is not vacuous', () => {
    const set = buildManifests(
      plan(gpuRequest({ model: 't4' }), builtinCatalog, aks),
      aks,
      { catalog: builtinCatalog },
    );
    const nodeClass = set.pool.objects.find(
      o => o.kind === 'AKSNodeClass',
    ) as any;
    expect(() =>
      validateAgainstCrd(
        { ...nodeClass, spec: { ...nodeClass.spec, imageFamily: 'Windows' } },
        CRD_FILES.AKSNodeClass,
      ),
    ).toThrow(/imageFamily/);
    expect(() =>
      validateAgainstCrd(
        { ...nodeClass, spec: { ...nodeClass.spec, osDiskSizeGB: 10 } },
        CRD_FILES.AKSNodeClass,
      ),
    ).toThrow(/osDiskSizeGB/);
  });
});
