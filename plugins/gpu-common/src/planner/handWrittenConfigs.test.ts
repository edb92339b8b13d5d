import { buildManifests } from '../manifests/buildManifests';
import { plan } from './plan';
import { inputIssues } from './__testUtils__/expectError';
import {
  awsCluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import type { HandWrittenConfigMap, PoolState, RepoState } from './types';

/** The cluster's device plugin and MIG manager read the team's own ConfigMaps. */
const cluster = {
  ...awsCluster,
  devicePluginConfigMap: {
    name: 'nvidia-device-plugin',
    namespace: 'kube-system',
  },
  migPartedConfigMap: { name: 'mig-parted', namespace: 'gpu-operator' },
};

const request = gpuRequest({
  sharing: 'time-slicing',
  vramGiB: 3,
  replicas: 2,
});
/** What the product would write for a 4-slice T4 pool (the content its name is derived from). */
const fourSlices = plan(
  gpuRequest({
    sharing: 'time-slicing',
    vramGiB: 3,
    replicas: 2,
    slicesPerGpu: 4,
  }),
  fixtureCatalog,
  awsCluster,
).sharing.devicePluginConfig;

const t4Pool: PoolState = {
  name: 'gpu-t4',
  path: 'clusters/default/karpenter/gpu.yaml',
  gpuModel: 't4',
  sharingMode: 'time-slicing',
  slicesPerGpu: 4,
  resourceName: 'nvidia.com/gpu.shared',
  instanceTypes: ['t4-x1'],
  capacityTypes: ['on-demand', 'spot'],
  deviceConfigName: 't4-shared',
  limits: { 'nvidia.com/gpu': 4 },
  ledger: [],
};

function devicePluginConfigMap(
  configs: Record<string, unknown>,
): HandWrittenConfigMap {
  return {
    name: 'nvidia-device-plugin',
    namespace: 'kube-system',
    path: 'clusters/default/gpu-operator/device-plugin.yaml',
    devicePluginConfigs: configs,
    migConfigs: {},
  };
}

function repo(
  pools: PoolState[],
  configMaps: HandWrittenConfigMap[],
): RepoState {
  const devicePluginConfigs = Object.assign(
    {},
    ...configMaps.map(m => m.devicePluginConfigs),
  );
  const migConfigs = Object.assign({}, ...configMaps.map(m => m.migConfigs));
  return {
    pools,
    devicePluginConfigs,
    migConfigs,
    workloads: [],
    handWrittenConfigMaps: configMaps,
  };
}

describe('plan: a cluster that reads its configs from a ConfigMap written by hand', () => {
  it('keeps a reused pool on its hand-written key, as it is, and writes no config', () => {
    // Not the product's content (no failRequestsGreaterThanOne): the pool runs it anyway.
    const handWritten = {
      version: 'v1',
      sharing: {
        timeSlicing: {
          renameByDefault: true,
          resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
        },
      },
    };
    const state = repo(
      [t4Pool],
      [devicePluginConfigMap({ 't4-shared': handWritten })],
    );
    const p = plan(request, fixtureCatalog, cluster, state);
    expect(p.pool).toMatchObject({
      name: 'gpu-t4',
      reused: true,
      path: 'clusters/default/karpenter/gpu.yaml',
    });
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe('t4-shared');
    expect(p.sharing).toMatchObject({
      deviceConfigName: 't4-shared',
      devicePluginConfig: handWritten,
      handWrittenConfigMap: {
        name: 'nvidia-device-plugin',
        namespace: 'kube-system',
        path: 'clusters/default/gpu-operator/device-plugin.yaml',
      },
    });
    expect(
      p.explanation.some(line =>
        /"t4-shared": a key of ConfigMap kube-system\/nvidia-device-plugin .* written by hand/.test(
          line,
        ),
      ),
    ).toBe(true);
    expect(
      buildManifests(p, cluster, { catalog: fixtureCatalog })
        .devicePluginConfig,
    ).toBeUndefined();
  });

  it('gives a new pool the hand-written key that holds exactly its config', () => {
    const state = repo([], [devicePluginConfigMap({ 'ts-four': fourSlices })]);
    const p = plan(
      gpuRequest({
        sharing: 'time-slicing',
        vramGiB: 3,
        replicas: 2,
        slicesPerGpu: 4,
      }),
      fixtureCatalog,
      cluster,
      state,
    );
    expect(p.pool.reused).toBe(false);
    expect(p.sharing.deviceConfigName).toBe('ts-four');
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe('ts-four');
    expect(p.sharing.handWrittenConfigMap?.name).toBe('nvidia-device-plugin');
  });

  it('refuses a request no pool can take on the keys it holds, naming the ConfigMap, the key and the content to add', () => {
    const state = repo(
      [t4Pool],
      [devicePluginConfigMap({ 't4-shared': fourSlices })],
    );
    const twoSlices = gpuRequest({
      sharing: 'time-slicing',
      vramGiB: 3,
      replicas: 2,
      slicesPerGpu: 2,
    });
    const wanted = plan(twoSlices, fixtureCatalog, awsCluster).sharing;
    const [issue] = inputIssues(() =>
      plan(twoSlices, fixtureCatalog, cluster, state),
    );
    expect(issue.rule).toBe('config-map-written-by-hand');
    expect(issue.path).toBe('spec.gpu.sharing');
    expect(issue.message).toContain(
      'the device plugin reads ConfigMap kube-system/nvidia-device-plugin, written by hand',
    );
    expect(issue.message).toContain(
      'clusters/default/gpu-operator/device-plugin.yaml',
    );
    expect(issue.message).toContain(`"${wanted.deviceConfigName}"`);
    expect(issue.message).toContain(JSON.stringify(wanted.devicePluginConfig));
  });

  it('reuses a pool on its key rather than refuse for want of a new pool config', () => {
    // A new pool would get 5 slices (3 GiB of 15): no key holds that, but the
    // 4-slice pool covers the request.
    const state = repo(
      [t4Pool],
      [devicePluginConfigMap({ 't4-shared': fourSlices })],
    );
    const p = plan(request, fixtureCatalog, cluster, state);
    expect(p.pool.name).toBe('gpu-t4');
    expect(p.decisions.pool.considered).toContainEqual(
      expect.objectContaining({
        option: 'a new pool',
        chosen: false,
        reason: expect.stringMatching(
          /no key of it holds the time-slicing config of 5 slices per GPU/,
        ),
      }),
    );
  });

  describe("a team's key that differs only in renameByDefault", () => {
    /** NVIDIA's "Shared Access to GPUs" example: 4 slices, pods keep asking for nvidia.com/gpu. */
    const teamKey = {
      version: 'v1',
      sharing: {
        timeSlicing: {
          renameByDefault: false,
          resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
        },
      },
    };
    const fourSliceRequest = gpuRequest({
      sharing: 'time-slicing',
      vramGiB: 3,
      replicas: 2,
      slicesPerGpu: 4,
    });
    type Built = { kind: string; spec: Record<string, any> };
    const objects = (p: ReturnType<typeof plan>) => {
      const built = buildManifests(p, cluster, { catalog: fixtureCatalog });
      return {
        built,
        pool: built.pool.objects as unknown as Built[],
        workload: built.workload.objects as unknown as Built[],
      };
    };

    it('is used by a new pool, whose pods ask for nvidia.com/gpu (NodeOverlay and limits on that name), and no config is written', () => {
      const state = repo([], [devicePluginConfigMap({ 'ts-4': teamKey })]);
      const p = plan(fourSliceRequest, fixtureCatalog, cluster, state);
      expect(p.sharing.deviceConfigName).toBe('ts-4');
      expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe('ts-4');
      expect(p.resourceName).toBe('nvidia.com/gpu');
      expect(p.explanation.join('\n')).toContain(
        'shares each GPU alike with renameByDefault: false, which decides the resource name',
      );
      const { built, pool, workload } = objects(p);
      expect(built.devicePluginConfig).toBeUndefined();
      const overlays = pool.filter(o => o.kind === 'NodeOverlay');
      expect(overlays.length).toBeGreaterThan(0);
      for (const overlay of overlays) {
        expect(Object.keys(overlay.spec.capacity)).toEqual(['nvidia.com/gpu']);
      }
      const nodePool = pool.find(o => o.kind === 'NodePool')!;
      expect(Object.keys(nodePool.spec.limits)).toEqual(['nvidia.com/gpu']);
      const [container] = workload.find(o => o.kind === 'Deployment')!.spec
        .template.spec.containers;
      expect(container.resources.limits).toEqual({ 'nvidia.com/gpu': '1' });
    });

    it('keeps a reused pool of that key on it, on nvidia.com/gpu', () => {
      const pool: PoolState = {
        ...t4Pool,
        deviceConfigName: 'ts-4',
        resourceName: 'nvidia.com/gpu',
      };
      const state = repo([pool], [devicePluginConfigMap({ 'ts-4': teamKey })]);
      const p = plan(fourSliceRequest, fixtureCatalog, cluster, state);
      expect(p.pool.name).toBe('gpu-t4');
      expect(p.pool.reused).toBe(true);
      expect(p.sharing.deviceConfigName).toBe('ts-4');
      expect(p.resourceName).toBe('nvidia.com/gpu');
    });

    it('a refusal says which field decides the resource name', () => {
      const state = repo([], [devicePluginConfigMap({ 'ts-4': teamKey })]);
      const [issue] = inputIssues(() =>
        plan(
          gpuRequest({
            sharing: 'time-slicing',
            vramGiB: 3,
            replicas: 2,
            slicesPerGpu: 2,
          }),
          fixtureCatalog,
          cluster,
          state,
        ),
      );
      expect(issue.rule).toBe('config-map-written-by-hand');
      expect(issue.message).toContain(
        'its renameByDefault decides the resource name pods ask for: true → nvidia.com/gpu.shared, false → nvidia.com/gpu',
      );
    });
  });

  it('changes nothing when the hand-written ConfigMap is not the one the cluster reads', () => {
    const state = repo(
      [t4Pool],
      [devicePluginConfigMap({ 't4-shared': fourSlices })],
    );
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.sharing.handWrittenConfigMap).toBeUndefined();
    // The product's own ConfigMap gets the key, same content under the same name.
    expect(p.sharing.deviceConfigName).toBe('t4-shared');
    expect(
      buildManifests(p, awsCluster, { catalog: fixtureCatalog })
        .devicePluginConfig,
    ).toEqual({ name: 't4-shared', config: fourSlices });
  });

  describe('MIG', () => {
    const migRequest = gpuRequest({
      model: 'a100-80gb',
      sharing: 'mig',
      vramGiB: 5,
    });
    const entries = [
      { devices: 'all', 'mig-enabled': true, 'mig-devices': { '1g.10gb': 7 } },
    ];
    const migConfigMap = (
      configs: Record<string, unknown>,
    ): HandWrittenConfigMap => ({
      name: 'mig-parted',
      namespace: 'gpu-operator',
      path: 'clusters/default/gpu-operator/mig-parted.yaml',
      devicePluginConfigs: {},
      migConfigs: configs,
    });
    const migPool: PoolState = {
      name: 'gpu-a100-mig',
      path: 'clusters/default/karpenter/a100.yaml',
      gpuModel: 'a100-80gb',
      sharingMode: 'mig',
      migProfile: '1g.10gb',
      resourceName: 'nvidia.com/mig-1g.10gb',
      instanceTypes: ['a100-x8'],
      capacityTypes: ['on-demand', 'spot'],
      migConfigName: 'small-slices',
      limits: { 'nvidia.com/gpu': 8 },
      ledger: [],
    };

    it('keeps a reused MIG pool on its hand-written entry and writes no mig-parted config', () => {
      const p = plan(
        migRequest,
        fixtureCatalog,
        cluster,
        repo([migPool], [migConfigMap({ 'small-slices': entries })]),
      );
      expect(p.pool.name).toBe('gpu-a100-mig');
      expect(p.sharing.migConfigName).toBe('small-slices');
      expect(p.pool.labels['nvidia.com/mig.config']).toBe('small-slices');
      expect(p.sharing.handWrittenConfigMap?.name).toBe('mig-parted');
      expect(
        buildManifests(p, cluster, { catalog: fixtureCatalog }).migConfig,
      ).toBeUndefined();
    });

    it('refuses a layout the hand-written mig-parted config lacks, naming the entry to add', () => {
      const [issue] = inputIssues(() =>
        plan(
          gpuRequest({ model: 'a100-80gb', sharing: 'mig', vramGiB: 30 }),
          fixtureCatalog,
          cluster,
          repo([], [migConfigMap({ 'small-slices': entries })]),
        ),
      );
      expect(issue.rule).toBe('config-map-written-by-hand');
      expect(issue.message).toContain(
        'the MIG manager reads ConfigMap gpu-operator/mig-parted, written by hand, and no entry of its mig-configs holds the layout',
      );
      expect(issue.message).toMatch(
        /Add the entry "all-3g\.40gb" to the mig-configs/,
      );
    });
  });
});
