/**
 * Static nodes with a node inventory: each sharing mode the profile allows,
 * planned and rendered as an NFD NodeFeatureRule (by node name and by GPU),
 * checked against NFD v0.19.0's CRD; the inventory as the pools' limit.
 */
import {
  clusterCapabilities,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { pciDeviceIdsOf } from '../catalog/data/pciDeviceIds';
import { mergeCatalog } from '../catalog/override';
import { GpuInputError } from '../errors';
import { buildManifests } from '../manifests/buildManifests';
import {
  crdSchemaErrors,
  validateAgainstCrd,
} from '../manifests/__testUtils__/crdSchemas';
import { poolAnnotations } from '../manifests/poolAnnotations';
import { plan } from '../planner/plan';
import { costOfPool, poolCostView } from '../planner/poolCost';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import type { RepoState } from '../planner/types';
import { SHARING_MODES, type SharingMode } from '../request/types';
import {
  poolStateOf,
  STATIC_INVENTORY,
  STATIC_RACK_MACHINES,
  staticCluster,
  staticRackCatalog,
} from './__testUtils__/staticRack';

const NFD_CRDS = 'nfd-v0.19.0_nfd.k8s-sigs.io_nfd-api-crds.yaml';

const requests: Record<SharingMode, [string, Record<string, unknown>]> = {
  exclusive: ['t4', { replicas: 3, vramGiB: 12, gpusPerReplica: 1 }],
  'time-slicing': ['t4', { replicas: 6, vramGiB: 3, slicesPerGpu: 4 }],
  mps: ['t4', { replicas: 5, vramGiB: 3 }],
  mig: ['a100-40gb', { replicas: 3, vramGiB: 9 }],
  dra: ['t4', { replicas: 2, vramGiB: 8 }],
};

function render(
  cluster: ReturnType<typeof staticCluster>,
  model: string,
  sharing: SharingMode,
  gpu: Record<string, unknown>,
  repoState?: RepoState,
  name?: string,
) {
  const thePlan = plan(
    gpuRequest({ model, sharing, ...gpu }, { name }),
    staticRackCatalog,
    cluster,
    repoState,
  );
  const objects = buildManifests(thePlan, cluster, {
    catalog: staticRackCatalog,
  }).pool.objects;
  return { thePlan, objects };
}

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GpuInputError);
    return (e as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

describe('static nodes: a pool is an NFD NodeFeatureRule', () => {
  for (const select of ['name', 'gpu'] as const) {
    const cluster = staticCluster(select);
    for (const sharing of SHARING_MODES) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      const [model, gpu] = requests[sharing];
      it(`${model} ${sharing}, nodes by ${select}: one NodeFeatureRule valid against NFD v0.19.0`, () => {
        const { thePlan, objects } = render(cluster, model, sharing, gpu);
        expect(objects.map(o => o.kind)).toEqual(['NodeFeatureRule']);
        const rule = objects[0] as any;
        validateAgainstCrd(rule, NFD_CRDS);
        expect(rule.apiVersion).toBe('nfd.k8s-sigs.io/v1alpha1');
        expect(rule.metadata.name).toBe(thePlan.pool.name);
        expect(rule.metadata.namespace).toBeUndefined(); // cluster-scoped
        expect(rule.metadata.labels['app.kubernetes.io/managed-by']).toBe(
          'backstage-gpu-gitops',
        );
        expect(rule.metadata.annotations).toEqual({
          ...poolAnnotations(thePlan, cluster),
          'gpu.backstage.io/machine': thePlan.nodes.instanceType,
        });
        expect(rule.spec.rules).toHaveLength(1);
        const [r] = rule.spec.rules;
        expect(r.labels).toEqual(thePlan.pool.labels);
        expect(r.labels['gpu.backstage.io/pool']).toBe(thePlan.pool.name);
        if (thePlan.sharing.deviceConfigName) {
          expect(r.labels['nvidia.com/device-plugin.config']).toBe(
            thePlan.sharing.deviceConfigName,
          );
        }
        if (sharing === 'mig') {
          expect(r.labels['nvidia.com/mig.config']).toBe(
            thePlan.sharing.migConfigName,
          );
        }
        expect(r.taints).toEqual([
          {
            key: 'nvidia.com/gpu',
            value: thePlan.pool.taint.value,
            effect: 'NoSchedule',
          },
        ]);
        const machineNodes = STATIC_INVENTORY.filter(
          n => n.machine === thePlan.nodes.instanceType,
        ).map(n => n.name);
        if (select === 'name') {
          expect(thePlan.pool.nodeNames).toHaveLength(
            thePlan.pool.limits.nodes ?? thePlan.nodes.expected,
          );
          expect(r.matchFeatures).toEqual([
            {
              feature: 'system.name',
              matchExpressions: {
                nodename: { op: 'In', value: thePlan.pool.nodeNames },
              },
            },
          ]);
        } else {
          expect(thePlan.pool.nodeNames).toEqual([...machineNodes].sort());
          const modelOf = staticRackCatalog.models.find(m => m.id === model)!;
          expect(r.matchFeatures).toEqual([
            {
              feature: 'pci.device',
              matchExpressions: {
                vendor: { op: 'In', value: ['10de'] },
                device: { op: 'In', value: pciDeviceIdsOf(modelOf) },
              },
            },
          ]);
        }
        for (const node of thePlan.pool.nodeNames!) {
          expect(machineNodes).toContain(node);
        }
        // owned hardware: price 0, as the catalog says
        expect(thePlan.cost.usdPerMonth).toBe(0);
      });
    }
  }

  it('the schema check can fail: an unknown operator and a namespace are refused', () => {
    const { objects } = render(staticCluster('name'), 't4', 'exclusive', {
      replicas: 1,
    });
    const bad = JSON.parse(JSON.stringify(objects[0]));
    bad.spec.rules[0].matchFeatures[0].matchExpressions.nodename.op = 'Equals';
    expect(crdSchemaErrors(bad, NFD_CRDS).join(' ')).toMatch(/op/);
  });

  it('PCI device ids: the T4 and the A100 40GB as NFD reads them from sysfs', () => {
    const id = (m: string) =>
      pciDeviceIdsOf(staticRackCatalog.models.find(x => x.id === m)!);
    expect(id('t4')).toEqual(['1eb8']);
    // mig-parted's 0x20B010DE is device 20b0 of vendor 10de
    expect(id('a100-40gb')).toContain('20b0');
    for (const model of staticRackCatalog.models) {
      for (const device of id(model.id))
        expect(device).toMatch(/^[0-9a-f]{4}$/);
    }
  });
});

describe('static nodes: the inventory limits the pools', () => {
  const byName = staticCluster('name');

  it('by name: nodes in name order, the pool never past the inventory', () => {
    // 2 T4 per node: 3 exclusive replicas need 2 nodes
    const { thePlan } = render(byName, 't4', 'exclusive', {
      replicas: 3,
      vramGiB: 12,
    });
    expect(thePlan.nodes.expected).toBe(2);
    expect(thePlan.pool.nodeNames).toEqual(['gpu-t4-01', 'gpu-t4-02']);
    const issues = issuesOf(() =>
      render(byName, 't4', 'exclusive', { replicas: 7, vramGiB: 12 }),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.replicas',
        rule: 'static-inventory-exhausted',
      }),
    ]);
    expect(issues[0].message).toMatch(
      /needs 4 rack-t4x2 node\(s\); the inventory has 3 \(gpu-t4-01, gpu-t4-02, gpu-t4-03\)/,
    );
  });

  it('by name: nodes another pool holds are not free; a reused pool keeps its nodes', () => {
    const first = render(byName, 't4', 'exclusive', {
      replicas: 2,
      vramGiB: 12,
    }).thePlan;
    expect(first.pool.nodeNames).toEqual(['gpu-t4-01']);
    const repoState: RepoState = {
      pools: [poolStateOf(first)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    };
    // a time-slicing pool gets the nodes the exclusive pool does not hold
    // (8 slices per node: 12 replicas need 2 nodes)
    const second = render(
      byName,
      't4',
      'time-slicing',
      { replicas: 12, vramGiB: 3, slicesPerGpu: 4 },
      repoState,
      'chat',
    ).thePlan;
    expect(second.pool.name).not.toBe(first.pool.name);
    expect(second.pool.nodeNames).toEqual(['gpu-t4-02', 'gpu-t4-03']);
    // 3 nodes of time slices are more than the 2 left
    const issues = issuesOf(() =>
      render(
        byName,
        't4',
        'time-slicing',
        { replicas: 24, vramGiB: 3, slicesPerGpu: 4 },
        repoState,
        'chat',
      ),
    );
    expect(issues[0].rule).toBe('static-inventory-exhausted');
    expect(issues[0].message).toMatch(
      new RegExp(`of which 1 are held by pool ${first.pool.name}`),
    );
    // the exclusive pool grows onto free nodes and keeps gpu-t4-01
    const grown = render(
      byName,
      't4',
      'exclusive',
      { replicas: 5, vramGiB: 12 },
      repoState,
    ).thePlan;
    expect(grown.pool.name).toBe(first.pool.name);
    expect(grown.pool.reused).toBe(true);
    expect(grown.pool.nodeNames).toEqual([
      'gpu-t4-01',
      'gpu-t4-02',
      'gpu-t4-03',
    ]);
  });

  it('by GPU: one pool per model; a second pool of the model is refused', () => {
    const byGpu = staticCluster('gpu');
    const first = render(byGpu, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 12,
    }).thePlan;
    const repoState: RepoState = {
      pools: [poolStateOf(first)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    };
    const issues = issuesOf(() =>
      render(
        byGpu,
        't4',
        'time-slicing',
        { replicas: 4, vramGiB: 3, slicesPerGpu: 4 },
        repoState,
        'chat',
      ),
    );
    expect(issues[0]).toEqual(
      expect.objectContaining({ rule: 'static-inventory-exhausted' }),
    );
    expect(issues[0].message).toMatch(
      new RegExp(`every t4 node is pool ${first.pool.name}'s`),
    );
  });

  it('by GPU: the pool holds, and pays for, every node of its model, not only those its ledger needs', () => {
    // Priced rack: a T4 node at $1.00 an hour is $730.00 a month.
    const priced = mergeCatalog(staticRackCatalog, {
      instanceTypes: STATIC_RACK_MACHINES.instanceTypes.map(t => ({
        ...t,
        onDemandUsdPerHour: t.name === 'rack-t4x2' ? 1 : 0,
      })),
    });
    const byGpu = staticCluster('gpu');
    const request = gpuRequest({
      model: 't4',
      sharing: 'exclusive',
      replicas: 1,
      vramGiB: 12,
    });
    const thePlan = plan(request, priced, byGpu);
    // The rule labels and taints all three T4 nodes (6 GPUs), so all three
    // are the pool's: capacity 6, 1 held, 5 unallocated; $2,190 a month.
    expect(thePlan.pool.nodeNames).toHaveLength(3);
    expect(thePlan.nodes.expected).toBe(3);
    expect(thePlan.cost.pool).toMatchObject({
      nodes: 3,
      capacityUnits: 6,
      allocatedUnits: 1,
      idleUnits: 5,
      usdPerMonth: 2190,
      idleUsdPerMonth: 1825,
    });
    expect(thePlan.cost.usdPerMonth).toBe(365);
    expect(thePlan.cost.marginalUsdPerMonth).toBe(2190);
    // Every reader prices the pool the same way from the repository.
    const repoState: RepoState = {
      pools: [poolStateOf(thePlan)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    };
    const read = costOfPool(
      repoState.pools[0],
      repoState,
      priced,
      undefined,
      byGpu,
    );
    expect(poolCostView(thePlan.pool.name, read)).toEqual(
      expect.objectContaining({
        nodes: 3,
        capacityUnits: 6,
        usdPerMonth: 2190,
        idleUsdPerMonth: 1825,
      }),
    );
    // By name, the same request gets (and pays for) one node.
    const byName = plan(request, priced, staticCluster('name'));
    expect(byName.cost.pool).toMatchObject({ nodes: 1, capacityUnits: 2 });
    // Released, the pool needs no node: it goes (the fixed nodes hold only while someone holds the pool).
    const released = costOfPool(
      repoState.pools[0],
      repoState,
      priced,
      [],
      byGpu,
    );
    expect(released.nodes).toBe(0);
  });

  it('by GPU: the nodes of one model must be one machine', () => {
    const mixed = resolveClusterProfile({
      name: 'rack',
      provider: 'static',
      staticNodes: {
        select: 'gpu',
        inventory: [
          { name: 'gpu-01', machine: 'rack-t4x2' },
          { name: 'gpu-02', machine: 'rack-t4x4' },
        ],
      },
    });
    const catalog = mergeCatalog(staticRackCatalog, {
      instanceTypes: [
        {
          ...STATIC_RACK_MACHINES.instanceTypes[0],
          name: 'rack-t4x4',
          gpusPerNode: 4,
        },
      ],
    });
    const refused = () =>
      plan(
        gpuRequest({ model: 't4', sharing: 'exclusive', replicas: 1 }),
        catalog,
        mixed,
      );
    expect(issuesOf(refused)).toEqual([
      expect.objectContaining({
        path: 'staticNodes.inventory.1.machine',
        rule: 'static-gpu-one-machine',
      }),
    ]);
    // By name the same inventory plans (each pool on one machine).
    const byName = resolveClusterProfile({
      ...mixed,
      staticNodes: { ...mixed.staticNodes!, select: 'name' },
    });
    expect(() =>
      plan(
        gpuRequest({ model: 't4', sharing: 'exclusive', replicas: 1 }),
        catalog,
        byName,
      ),
    ).not.toThrow();
  });

  it('a model no inventory node has is unavailable, and refused by the planner', () => {
    const onlyT4 = resolveClusterProfile({
      name: 'rack-t4',
      provider: 'static',
      staticNodes: {
        select: 'name',
        inventory: [{ name: 'gpu-t4-01', machine: 'rack-t4x2' }],
      },
    });
    const a100 = clusterCapabilities(onlyT4, staticRackCatalog).models.find(
      m => m.id === 'a100-40gb',
    )!;
    expect(a100.unavailable?.rule).toBe('no-instance-type');
    expect(() =>
      render(onlyT4, 'a100-40gb', 'exclusive', { replicas: 1, vramGiB: 30 }),
    ).toThrow(GpuInputError);
  });

  it('an inventory machine the catalog has not is named', () => {
    const cluster = resolveClusterProfile({
      name: 'rack',
      provider: 'static',
      staticNodes: {
        select: 'name',
        inventory: [{ name: 'gpu-01', machine: 'rack-h100x8' }],
      },
    });
    expect(issuesOf(() => render(cluster, 't4', 'exclusive', {}))).toEqual([
      expect.objectContaining({
        path: 'staticNodes.inventory.0.machine',
        rule: 'unknown-machine',
      }),
    ]);
  });

  it('without an inventory a static pool writes nothing and nothing limits it', () => {
    const bare = resolveClusterProfile({ name: 'rack', provider: 'static' });
    const { thePlan, objects } = render(bare, 't4', 'exclusive', {
      replicas: 9,
      vramGiB: 12,
    });
    expect(objects).toEqual([]);
    expect(thePlan.pool.nodeNames).toBeUndefined();
    expect(thePlan.nodes.expected).toBe(5);
  });
});

describe('static nodes: the profile', () => {
  const inventory = [{ name: 'gpu-01', machine: 'rack-t4x2' }];
  it.each([
    [
      { provider: 'aws-karpenter', staticNodes: { select: 'name', inventory } },
      'staticNodes',
      'static-nodes-settings',
    ],
    [
      {
        provider: 'static',
        staticNodes: {
          select: 'name',
          inventory: [...inventory, { name: 'gpu-01', machine: 'rack-t4x2' }],
        },
      },
      'staticNodes.inventory.1.name',
      'duplicate-node',
    ],
    [
      {
        provider: 'static',
        staticNodes: {
          select: 'name',
          inventory: [{ name: 'GPU_01', machine: 'x' }],
        },
      },
      'staticNodes.inventory.0.name',
      'node-name',
    ],
    [
      { provider: 'static', staticNodes: { select: 'label', inventory } },
      'staticNodes.select',
      undefined,
    ],
    [
      { provider: 'static', staticNodes: { select: 'name', inventory: [] } },
      'staticNodes.inventory',
      undefined,
    ],
    [
      {
        provider: 'static',
        staticNodes: { select: 'name', inventory, extra: 1 },
      },
      'staticNodes.extra',
      'unknown-key',
    ],
    [
      {
        provider: 'static',
        gpuTaintKey: 'node-role.kubernetes.io/gpu',
        staticNodes: { select: 'name', inventory },
      },
      'gpuTaintKey',
      'nfd-taint-key',
    ],
    [
      {
        provider: 'static',
        gpuTaintKey: 'gpu',
        staticNodes: { select: 'gpu', inventory },
      },
      'gpuTaintKey',
      'nfd-taint-key',
    ],
  ])('%j is refused at %s', (override, path, rule) => {
    const issues = issuesOf(() =>
      resolveClusterProfile({ name: 'rack', ...override }),
    );
    expect(issues.map(i => i.path)).toEqual([path]);
    if (rule) expect(issues[0].rule).toBe(rule);
  });

  it('a kubernetes.io taint key stays allowed without an inventory (nothing goes through NFD)', () => {
    expect(
      resolveClusterProfile({
        name: 'rack',
        provider: 'static',
        gpuTaintKey: 'node-role.kubernetes.io/gpu',
      }).gpuTaintKey,
    ).toBe('node-role.kubernetes.io/gpu');
  });
});

describe('static pools beside the standalone chart’s NFD', () => {
  const stateWith = (nfdAppliesTaints: boolean | undefined): RepoState => ({
    pools: [],
    devicePluginConfigs: {},
    migConfigs: {},
    workloads: [],
    gpuStack: {
      chartFeatureDiscovery: {
        file: 'infra/nvidia-device-plugin.yaml',
        setting:
          'the `nvidia-device-plugin` Helm chart installed by Flux HelmRelease `nvidia-device-plugin` in `infra/nvidia-device-plugin.yaml`',
        gfd: true,
        nfd: true,
        nfdOnGpuNodes: true,
        ...(nfdAppliesTaints !== undefined ? { nfdAppliesTaints } : {}),
        turnOnNfdTaints:
          'the parameter `nfd.master.enableTaints` to `"true"` in `spec.source.helm.parameters` of Argo CD Application `nvidia-device-plugin`',
      },
    },
  });
  const caveatsOf = (
    cluster: ReturnType<typeof staticCluster>,
    state: RepoState,
  ) =>
    render(
      cluster,
      't4',
      'exclusive',
      requests.exclusive[1],
      state,
    ).thePlan.warnings.filter(w => w.includes('-enable-taints'));

  it('warns that the pool’s nodes would carry no taint where that NFD labels the GPU nodes without -enable-taints, naming what to set where the release sets its values', () => {
    const cluster = staticCluster('gpu');
    const [caveat, ...more] = caveatsOf(cluster, stateWith(false));
    expect(more).toEqual([]);
    expect(caveat).toContain(
      'the NFD that labels its GPU nodes (the `nvidia-device-plugin` Helm chart installed by Flux HelmRelease `nvidia-device-plugin` in `infra/nvidia-device-plugin.yaml`) runs its nfd-master without `-enable-taints`',
    );
    expect(caveat).toContain(`carry their taint ${cluster.gpuTaintKey}`);
    expect(caveat).toMatch(
      /; set the parameter `nfd\.master\.enableTaints` to `"true"` in `spec\.source\.helm\.parameters` of Argo CD Application `nvidia-device-plugin`$/,
    );
    expect(caveatsOf(cluster, stateWith(undefined))[0]).toContain(
      'may run its nfd-master without `-enable-taints`',
    );
  });

  it('says nothing where it applies the taints, where the operator’s NFD labels the GPU nodes, or where the pools are no NodeFeatureRules', () => {
    const cluster = staticCluster('gpu');
    expect(caveatsOf(cluster, stateWith(true))).toEqual([]);
    const offGpuNodes = stateWith(false);
    offGpuNodes.gpuStack!.chartFeatureDiscovery!.nfdOnGpuNodes = false;
    expect(caveatsOf(cluster, offGpuNodes)).toEqual([]);
    const noInventory = resolveClusterProfile({
      name: 'rack-labelled-by-hand',
      provider: 'static',
      migStrategy: 'single',
    });
    expect(caveatsOf(noInventory, stateWith(false))).toEqual([]);
  });
});
