/**
 * Bottlerocket's built-in device plugin time-slices every GPU of its node
 * class as the class's user data says (bottlerocket.dev settings reference,
 * `settings.kubelet-device-plugins.nvidia.*`, Bottlerocket 1.54), whatever
 * the pool: a time-slicing request plans on those slices, or is refused
 * saying what the node class sets; whole GPUs stay refused there.
 */
import type { ClusterGpuStack } from '../cluster/gpuStack';
import { buildManifests } from '../manifests/buildManifests';
import { buildDevicePluginConfig } from '../manifests/devicePluginConfig';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import { inputIssues } from './__testUtils__/expectError';
import { cluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import { plan } from './plan';
import type { PoolState, RepoState } from './types';

/** The device-plugin config (v1) the user data amounts to: 4 slices per GPU. */
const userDataConfig = (renameByDefault: boolean) => ({
  version: 'v1',
  sharing: {
    timeSlicing: {
      renameByDefault,
      resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
    },
  },
});

const onBottlerocket = (renameByDefault: boolean): ClusterGpuStack => ({
  devicePlugin: {
    kind: 'bottlerocket',
    readsNamedConfigs: false,
    file: 'clusters/prod/karpenter/gpu.yaml',
    setting:
      'EC2NodeClass `gpu` of the GPU pools with `amiFamily: Bottlerocket`, in `clusters/prod/karpenter/gpu.yaml`',
    sharesByDefault: 'time-slicing, 4 per GPU',
    config: userDataConfig(renameByDefault),
  },
});

const state = (stack: ClusterGpuStack, pools: PoolState[] = []): RepoState => ({
  pools,
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
  gpuStack: stack,
});

const prod = cluster({
  name: 'prod',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  karpenterVersion: '1.8.0',
  nodeOverlay: true,
});

describe('time-slicing on a Bottlerocket node class that time-slices every GPU', () => {
  it.each([
    [false, 'nvidia.com/gpu'],
    [true, 'nvidia.com/gpu.shared'],
  ])(
    'plans a new pool on its 4 slices (rename-by-default %s: pods ask for %s), writing no config and no config label',
    (rename, resource) => {
      const planned = plan(
        gpuRequest({ sharing: 'time-slicing', vramGiB: 2, replicas: 3 }),
        fixtureCatalog,
        prod,
        state(onBottlerocket(rename)),
      );
      // 2 GiB would derive 8 slices of a T4; its nodes run 4.
      expect(planned.sharing).toMatchObject({
        mode: 'time-slicing',
        slicesPerGpu: 4,
        sharedByProvider: true,
      });
      expect(planned.resourceName).toBe(resource);
      expect(planned.resourcePerReplica).toBe(1);
      expect(planned.perReplica.gpuShare).toBe(0.25);
      expect(
        planned.pool.labels[WELL_KNOWN_KEYS.devicePluginConfig],
      ).toBeUndefined();
      expect(buildDevicePluginConfig(planned)).toBeUndefined();
      const manifests = buildManifests(planned, prod);
      const nodePool = manifests.pool.objects.find(o => o.kind === 'NodePool');
      expect(JSON.stringify(nodePool)).not.toContain(
        WELL_KNOWN_KEYS.devicePluginConfig,
      );
      expect(planned.explanation).toContainEqual(
        expect.stringContaining(
          `advertises each GPU 4 times as ${resource} on every node of the class; a replica holds 1 slice (1/4 of a GPU)`,
        ),
      );
    },
  );

  it('reuses the imported pool on the same slices and resource', () => {
    const imported: PoolState = {
      name: 'gpu',
      path: 'clusters/prod/karpenter/gpu.yaml',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu',
      instanceTypes: ['t4-x1', 't4-x4'],
      capacityTypes: ['on-demand'],
    };
    const planned = plan(
      gpuRequest({ sharing: 'time-slicing', vramGiB: 3 }),
      fixtureCatalog,
      prod,
      state(onBottlerocket(false), [imported]),
    );
    expect(planned.pool).toMatchObject({ name: 'gpu', reused: true });
    expect(planned.resourceName).toBe('nvidia.com/gpu');
    expect(planned.sharing.sharedByProvider).toBe(true);
  });

  it.each([
    [
      'more memory than a slice holds',
      { vramGiB: 6 },
      'spec.gpu.vramGiB',
      '6.0 GiB per replica does not fit one slice',
    ],
    [
      'other slices per GPU',
      { vramGiB: 2, slicesPerGpu: 8 },
      'spec.gpu.slicesPerGpu',
      'slicesPerGpu 8 cannot run',
    ],
  ])(
    'refuses a request asking for %s, saying what the node class sets',
    (_, asks, path, words) => {
      const issues = inputIssues(() =>
        plan(
          gpuRequest({ sharing: 'time-slicing', ...asks }),
          fixtureCatalog,
          prod,
          state(onBottlerocket(false)),
        ),
      );
      expect(issues).toEqual([
        expect.objectContaining({ path, rule: 'node-class-sharing' }),
      ]);
      expect(issues[0].message).toContain(words);
      expect(issues[0].message).toContain(
        "Bottlerocket's built-in NVIDIA device plugin (EC2NodeClass `gpu` of the GPU pools with `amiFamily: Bottlerocket`, in `clusters/prod/karpenter/gpu.yaml`), whose user data time-slices every GPU 4 ways (time-slicing.replicas = 4), each slice a nvidia.com/gpu",
      );
    },
  );

  it('still refuses whole GPUs and MPS there', () => {
    for (const sharing of ['exclusive', 'mps'] as const) {
      expect(
        inputIssues(() =>
          plan(
            gpuRequest({ sharing, vramGiB: 2 }),
            fixtureCatalog,
            prod,
            state(onBottlerocket(false)),
          ),
        ).map(i => i.rule),
      ).toEqual([
        sharing === 'exclusive'
          ? 'device-plugin-shares-by-default'
          : 'device-plugin-bottlerocket',
      ]);
    }
  });
});
