/**
 * Requests planned and rendered for an EKS Auto Mode cluster: the NodePool
 * alone (no NodeOverlay, no node class), on Auto Mode's node class and in
 * Auto Mode's labels, valid against the karpenter.sh v1 NodePool schema and
 * Karpenter's CEL label rules (Auto Mode's own NodePool CRD is AWS's and not
 * public: what it adds, the `eks.amazonaws.com` label list, is checked here
 * against the labels AWS documents); the modes its built-in device plugin
 * cannot serve refused in the form's words.
 */
import { builtinCatalog } from '../catalog/builtin';
import {
  clusterCapabilities,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { isGpuInputError } from '../errors';
import { buildManifests } from '../manifests/buildManifests';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import { landingPools } from '../scheduling/landingPools';
import { nodeShapeOf } from '../scheduling/nodeShapeOf';
import { podSchedulingOf } from '../scheduling/podScheduling';
import { checkObjectRules } from '../validation/objectRules';
import { gpuModelOfRequirements } from './gpuMachineLabels';

const autoMode = resolveClusterProfile({
  name: 'auto',
  provider: 'eks-auto-mode',
  region: 'us-west-2',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.1',
});

/**
 * The `eks.amazonaws.com/` labels Auto Mode documents for NodePool
 * requirements (awsdocs/amazon-eks-user-guide
 * `latest/ug/automode/create-node-pool.adoc`, "EKS Auto Mode Supported Labels").
 */
const AUTO_MODE_LABELS = [
  'eks.amazonaws.com/instance-hypervisor',
  'eks.amazonaws.com/compute-type',
  'eks.amazonaws.com/instance-encryption-in-transit-supported',
  'eks.amazonaws.com/instance-category',
  'eks.amazonaws.com/instance-generation',
  'eks.amazonaws.com/instance-family',
  'eks.amazonaws.com/instance-size',
  'eks.amazonaws.com/instance-cpu',
  'eks.amazonaws.com/instance-cpu-manufacturer',
  'eks.amazonaws.com/instance-memory',
  'eks.amazonaws.com/instance-ebs-bandwidth',
  'eks.amazonaws.com/instance-network-bandwidth',
  'eks.amazonaws.com/instance-gpu-name',
  'eks.amazonaws.com/instance-gpu-manufacturer',
  'eks.amazonaws.com/instance-gpu-count',
  'eks.amazonaws.com/instance-gpu-memory',
  'eks.amazonaws.com/instance-local-nvme',
];

function rendered(sharing: 'exclusive' | 'dra', model = 'a10g') {
  const thePlan = plan(
    gpuRequest({
      model,
      sharing,
      replicas: 2,
      vramGiB: 16,
      gpusPerReplica: sharing === 'exclusive' ? 1 : undefined,
    }),
    builtinCatalog,
    autoMode,
  );
  return {
    thePlan,
    set: buildManifests(thePlan, autoMode, { catalog: builtinCatalog }),
  };
}

describe('EKS Auto Mode: plan and render', () => {
  it("references Auto Mode's default NodeClass and writes no NodeOverlay", () => {
    expect(autoMode.nodeClass).toEqual({
      group: 'eks.amazonaws.com',
      kind: 'NodeClass',
      name: 'default',
    });
    expect(autoMode.nodeOverlay).toBe(false);
  });

  it.each(['exclusive', 'dra'] as const)(
    '%s: one NodePool on EC2 machines in Auto Mode labels, valid against the karpenter.sh v1 schema and its label rules',
    sharing => {
      const { thePlan, set } = rendered(sharing);
      expect(set.pool.objects.map(o => o.kind)).toEqual(['NodePool']);
      const [nodePool] = set.pool.objects as any[];
      expect(nodePool.spec.template.spec.nodeClassRef).toEqual({
        group: 'eks.amazonaws.com',
        kind: 'NodeClass',
        name: 'default',
      });
      const requirements = nodePool.spec.template.spec.requirements;
      expect(requirements.slice(0, 2)).toEqual([
        {
          key: 'eks.amazonaws.com/instance-gpu-manufacturer',
          operator: 'In',
          values: ['nvidia'],
        },
        {
          key: 'eks.amazonaws.com/instance-gpu-name',
          operator: 'In',
          values: ['a10g'],
        },
      ]);
      const keys: string[] = requirements.map((r: { key: string }) => r.key);
      expect(keys.filter(k => k.startsWith('karpenter.k8s.aws/'))).toEqual([]);
      // Auto Mode runs Linux only and does not support kubernetes.io/os.
      expect(keys).not.toContain('kubernetes.io/os');
      for (const key of keys.filter(k => k.startsWith('eks.amazonaws.com/'))) {
        expect(AUTO_MODE_LABELS).toContain(key);
      }
      expect(
        thePlan.pool.instanceTypes.every(t =>
          builtinCatalog.instanceTypes.some(
            m => m.name === t && m.provider === 'aws',
          ),
        ),
      ).toBe(true);
      // The pool reads back as a GPU pool of its model by Auto Mode's GPU
      // name label alone (without the instance types it pins).
      const byLabels = requirements.filter(
        (r: { key: string }) => r.key !== 'node.kubernetes.io/instance-type',
      );
      expect(gpuModelOfRequirements(byLabels, builtinCatalog)).toBe('a10g');
      for (const object of [...set.pool.objects, ...set.workload.objects]) {
        expect(() => validateAgainstSchema(object)).not.toThrow();
        expect(
          checkObjectRules(object, {
            karpenterVersion: autoMode.karpenterVersion,
          }),
        ).toEqual([]);
      }
    },
  );

  it('a DRA pool is a static-capacity NodePool (Auto Mode launches no node for a claim), its pods claiming GPUs', () => {
    const { set } = rendered('dra');
    const [nodePool] = set.pool.objects as any[];
    expect(nodePool.spec.replicas).toBeGreaterThan(0);
    expect(Object.keys(nodePool.spec.limits)).toEqual(['nodes']);
    expect(set.workload.objects.map(o => o.kind)).toContain(
      'ResourceClaimTemplate',
    );
  });

  it('each request’s pods land on its planned pool and on no other', () => {
    const requests = [
      ['exclusive', 'a10g'],
      ['dra', 'l4'],
    ] as const;
    const planned = requests.map(([sharing, model]) => {
      const { thePlan, set } = rendered(sharing, model);
      const deployment = set.workload.objects.find(
        o => o.kind === 'Deployment',
      ) as any;
      return {
        thePlan,
        shape: nodeShapeOf(set.pool.objects[0] as any),
        podSpec: deployment.spec.template.spec,
      };
    });
    const shapes = planned.map(p => p.shape);
    expect(new Set(shapes.map(s => s.pool)).size).toBe(2);
    expect(shapes[0].labels['karpenter.sh/nodepool']).toBe(
      planned[0].thePlan.pool.name,
    );
    for (const { thePlan, podSpec } of planned) {
      expect(landingPools(podSchedulingOf(podSpec), shapes).pools).toEqual([
        thePlan.pool.name,
      ]);
    }
  });

  it.each(['time-slicing', 'mps', 'mig'] as const)(
    '%s is refused with the reason, in the form and by the planner',
    sharing => {
      const unavailable = sharingModeUnavailable(autoMode, sharing);
      expect(unavailable?.rule).toBe('eks-auto-mode-device-plugin');
      expect(unavailable?.reason).toContain(
        'EKS Auto Mode runs its own NVIDIA device plugin',
      );
      expect(unavailable?.reason).toContain('dra');
      let thrown: unknown;
      try {
        plan(
          gpuRequest({
            model: sharing === 'mig' ? 'a100-40gb' : 't4',
            sharing,
            replicas: 2,
            vramGiB: 4,
            gpusPerReplica: undefined,
          }),
          builtinCatalog,
          autoMode,
        );
      } catch (e) {
        thrown = e;
      }
      expect(isGpuInputError(thrown)).toBe(true);
      expect(String((thrown as Error).message)).toContain(
        'EKS Auto Mode runs its own NVIDIA device plugin',
      );
    },
  );

  it('plans only the EC2 families Auto Mode launches: V100 (p3 only) is not offered, and refused', () => {
    const capabilities = clusterCapabilities(autoMode, builtinCatalog);
    expect(
      capabilities.models.find(m => m.id === 'v100')?.unavailable,
    ).toMatchObject({ rule: 'no-instance-type' });
    // On self-managed Karpenter the same catalog offers it (p3.2xlarge).
    expect(
      clusterCapabilities(resolveClusterProfile(), builtinCatalog).models.find(
        m => m.id === 'v100',
      )?.unavailable,
    ).toBeUndefined();
    expect(() =>
      plan(
        gpuRequest({ model: 'v100', replicas: 1, vramGiB: 8 }),
        builtinCatalog,
        autoMode,
      ),
    ).toThrow(/v100/);
    const a100 = plan(
      gpuRequest({ model: 'a100-40gb', replicas: 1, vramGiB: 30 }),
      builtinCatalog,
      autoMode,
    );
    expect(a100.pool.instanceTypes).toEqual(['p4d.24xlarge']);
  });

  it('dra is refused below Kubernetes 1.36, where Auto Mode runs no DRA driver', () => {
    const older = resolveClusterProfile({
      name: 'auto-135',
      provider: 'eks-auto-mode',
      kubernetesVersion: '1.35.2',
    });
    expect(sharingModeUnavailable(older, 'dra')).toMatchObject({
      rule: 'eks-auto-mode-dra-kubernetes-version',
    });
    expect(sharingModeUnavailable(older, 'exclusive')).toBeUndefined();
  });

  it.each([
    [{ generateNodeClass: true }, 'generateNodeClass'],
    [{ nodeOverlay: true }, 'nodeOverlay'],
    [{ dra: { consumableShares: 4 } }, 'dra.consumableShares'],
    [{ dra: { karpenterNvidiaGate: true } }, 'dra.karpenterNvidiaGate'],
  ])('a profile setting %j is refused, naming %s', (setting, field) => {
    let thrown: unknown;
    try {
      resolveClusterProfile({
        name: 'auto',
        provider: 'eks-auto-mode',
        kubernetesVersion: '1.36.1',
        ...setting,
      });
    } catch (e) {
      thrown = e;
    }
    expect(isGpuInputError(thrown)).toBe(true);
    expect((thrown as any).issues.map((i: any) => i.path)).toContain(field);
    expect(String((thrown as Error).message)).toContain('eks-auto-mode');
  });
});
