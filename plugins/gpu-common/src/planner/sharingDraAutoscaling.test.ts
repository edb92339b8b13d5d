import { plan } from './plan';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';
import { buildNodePool } from '../manifests/nodePool';
import { describeShare } from '../output/planText';
import { buildEc2NodeClass } from '../manifests/ec2NodeClass';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';

/** An EKS cluster where Karpenter 1.15 launches nodes for DRA claims. */
const draCluster = cluster({
  name: 'dra',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.35.2',
  dra: { karpenterNvidiaGate: true },
});

/** The same, with the NVIDIA DRA driver sharing every GPU 4 ways (K8s 1.36). */
const sharingCluster = cluster({
  name: 'dra-shared',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.0',
  dra: { karpenterNvidiaGate: true, consumableShares: 4 },
});

describe('plan: DRA on a Karpenter that provisions for claims', () => {
  it('plans an autoscaling pool limited in GPUs, not a static one', () => {
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 3, vramGiB: 8 }),
      fixtureCatalog,
      draCluster,
    );
    expect(p.pool.name).toBe('gpu-t4-dra');
    // Whole nodes of the most granular machine (1 T4 each): 3 GPUs.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 3 });
    expect(p.warnings.some(w => /static pool/.test(w))).toBe(false);
    const nodePool = buildNodePool(p, draCluster) as any;
    expect(nodePool.spec.replicas).toBeUndefined();
    expect(nodePool.spec.limits).toEqual({ 'nvidia.com/gpu': '3' });
    expect(p.decisions.sharing.reason).toMatch(
      /on a pool Karpenter scales for pending claims/,
    );
  });

  it.each([
    [
      'Karpenter below 1.15',
      { karpenterVersion: '1.14.1', dra: { karpenterNvidiaGate: true } },
      /upgrade Karpenter from 1\.14\.1 to 1\.15\.1 or later \(profile karpenterVersion\)/,
    ],
    [
      'the DRANVIDIAGPU gate off',
      { karpenterVersion: '1.15.1' },
      /settings\.awsFeatureGates\.draNVIDIAGPU: true.*dra\.karpenterNvidiaGate: true/,
    ],
  ])('keeps a static pool with %s and says what to set', (_, o, said) => {
    const c = cluster({ name: 'c', kubernetesVersion: '1.35.0', ...o });
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 3, vramGiB: 8 }),
      fixtureCatalog,
      c,
    );
    expect(p.pool.limits).toEqual({ nodes: 3 });
    const warning = p.warnings.find(w => /static pool/.test(w));
    expect(warning).toMatch(said);
    expect((buildNodePool(p, c) as any).spec.replicas).toBe(3);
  });

  it('keeps a static pool on a cluster without a Kubernetes version and names the field', () => {
    const c = cluster({
      name: 'c',
      karpenterVersion: '1.15.1',
      dra: { karpenterNvidiaGate: true },
    });
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 1, vramGiB: 8 }),
      fixtureCatalog,
      c,
    );
    expect(p.pool.limits).toEqual({ nodes: 1 });
    expect(p.warnings.join(' ')).toMatch(
      /Kubernetes 1\.34 or later .*profile kubernetesVersion \(now unset\)/,
    );
  });

  it('the default profile (Karpenter 1.14.1) still plans the static pool', () => {
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 2, vramGiB: 8 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.pool.limits).toEqual({ nodes: 2 });
  });
});

describe('plan: DRA with the driver’s consumable shares', () => {
  it('packs 4 one-share replicas per GPU and prices a quarter GPU each', () => {
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 8, vramGiB: 3 }),
      fixtureCatalog,
      sharingCluster,
    );
    expect(p.pool.name).toBe('gpu-t4-dra4');
    expect(p.sharing).toEqual({ mode: 'dra', slicesPerGpu: 4 });
    expect(p.resourcePerReplica).toBe(1);
    expect(p.perReplica.vramGuaranteed).toBe(false);
    expect(describeShare(p)).toBe('1 of 4 DRA shares of a GPU');
    // 8 claims of 1 share on 4-share GPUs: 2 GPUs.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
    // Karpenter learns the sharing from the node class only.
    expect(p.warnings).toContainEqual(
      expect.stringContaining(
        'set the annotation karpenter.k8s.aws/nvidia-consumable-capacity: "4" on EC2NodeClass gpu',
      ),
    );
  });

  it('writes the sharing on the node class the product generates', () => {
    const generated = cluster({
      name: 'dra-shared',
      karpenterVersion: '1.15.1',
      kubernetesVersion: '1.36.0',
      generateNodeClass: true,
      dra: { karpenterNvidiaGate: true, consumableShares: 4 },
    });
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 8, vramGiB: 3 }),
      fixtureCatalog,
      generated,
    );
    expect(p.warnings.join(' ')).not.toMatch(/nvidia-consumable-capacity/);
    const nodeClass = buildEc2NodeClass(generated) as any;
    expect(nodeClass.metadata.annotations).toEqual({
      'karpenter.k8s.aws/nvidia-consumable-capacity': '4',
    });
    expect(() => validateAgainstSchema(nodeClass)).not.toThrow();
    expect(
      (buildEc2NodeClass(draCluster) as any).metadata.annotations,
    ).toBeUndefined();
  });

  it('claims as many shares as the memory asked needs', () => {
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 2, vramGiB: 9 }),
      fixtureCatalog,
      sharingCluster,
    );
    // The fixture's T4 (16 GiB) in 4 shares of 4 GiB: 9 GiB needs 3 shares,
    // and two such claims cannot share one GPU (6 of 4 shares).
    expect(p.resourcePerReplica).toBe(3);
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
  });
});

describe('plan: a second DRA request on a shared DRA pool', () => {
  it('reuses the pool and sizes it on the shares of both, pricing the request by its shares', () => {
    const existing = {
      name: 'gpu-t4-dra4',
      path: 'clusters/default/gpu/nodepools/gpu-t4-dra4.yaml',
      gpuModel: 't4',
      sharingMode: 'dra' as const,
      slicesPerGpu: 4,
      resourceName: 'gpu.nvidia.com',
      instanceTypes: ['t4-x1', 't4-x4'],
      capacityTypes: ['on-demand' as const],
      limits: { 'nvidia.com/gpu': 1 },
      ledger: [{ request: 'ml/other', replicas: 4, unitsPerReplica: 1 }],
    };
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 8, vramGiB: 3 }),
      fixtureCatalog,
      sharingCluster,
      {
        pools: [existing],
        devicePluginConfigs: {},
        migConfigs: {},
        workloads: [],
      },
    );
    expect(p.pool.reused).toBe(true);
    expect(p.pool.name).toBe('gpu-t4-dra4');
    // 4 + 8 one-share claims on 4-share GPUs: 3 GPUs.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 3 });
    // 8 quarter GPUs: what its quota counts.
    expect(p.physicalGpus).toBe(2);
    // Its 8 of the pool's 12 shares: two thirds of the 3 nodes' price.
    expect(p.cost.usdPerMonth).toBeCloseTo(
      (p.cost.pool.usdPerMonth * 8) / 12,
      1,
    );
  });
});

describe('cluster profile: DRA sharing needs Kubernetes 1.36', () => {
  it.each([['1.35.4'], [undefined]])(
    'refuses consumableShares on Kubernetes %s, naming the field and rule',
    version => {
      expect(
        inputIssues(() =>
          cluster({
            name: 'c',
            ...(version ? { kubernetesVersion: version } : {}),
            dra: { karpenterNvidiaGate: true, consumableShares: 4 },
          }),
        ),
      ).toEqual([
        expect.objectContaining({
          path: 'dra.consumableShares',
          rule: 'dra-sharing-kubernetes-version',
          message: expect.stringMatching(/needs Kubernetes 1\.36 or later/),
        }),
      ]);
    },
  );
});
