/**
 * A pool written before the product, its nodes without a
 * `nvidia.com/device-plugin.config` label, on a cluster whose GPU Operator
 * time-slices every GPU by default (NVIDIA gpu-operator docs,
 * "Time-Slicing GPUs in Kubernetes": `devicePlugin.config.default` applies
 * to every node without that label): its nodes advertise the default's
 * slices, so a NodeOverlay giving Karpenter 4 `nvidia.com/gpu` per GPU is
 * right, not a capacity mismatch.
 */
import {
  builtinCatalog,
  type ClusterGpuStack,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import type { BuiltRoot } from './builtRoots';
import { builtPools } from './builtPools';
import type { Finding } from './findings';
import { gpuConfigMapsOf } from './gpuConfigMaps';
import { checkNodeOverlayCapacity } from './poolCapacity';

const nodePool: BuiltObject = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'nvidia-gpu' },
  spec: {
    template: {
      spec: {
        nodeClassRef: {
          group: 'karpenter.k8s.aws',
          kind: 'EC2NodeClass',
          name: 'default',
        },
        requirements: [
          {
            key: 'node.kubernetes.io/instance-type',
            operator: 'In',
            values: ['g4dn.xlarge'],
          },
        ],
        taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
      },
    },
  },
};

const overlay: BuiltObject = {
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
  metadata: { name: 'nvidia-gpu-1gpu' },
  spec: {
    requirements: [
      { key: 'karpenter.sh/nodepool', operator: 'In', values: ['nvidia-gpu'] },
      {
        key: 'karpenter.k8s.aws/instance-gpu-count',
        operator: 'In',
        values: ['1'],
      },
    ],
    capacity: { 'nvidia.com/gpu': '4' },
  },
};

/** The recipe's default: key `any` of `time-slicing-config`, 4 slices of each GPU. */
const timeSlicedByDefault: ClusterGpuStack = {
  operatorSharesByDefault: {
    file: 'clusters/prod/gpu-operator/release.yaml',
    setting: '`devicePlugin.config.default: any` in values.yaml',
    sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
    config: {
      key: 'any',
      content: {
        version: 'v1',
        sharing: {
          timeSlicing: {
            resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
          },
        },
      },
    },
  },
};

async function overlayFindings(
  stack: ClusterGpuStack | undefined,
): Promise<Finding[]> {
  const root: BuiltRoot = {
    folder: 'clusters/prod',
    file: 'clusters/prod/kustomization.yaml',
    folders: ['clusters/prod'],
    objects: [nodePool, overlay],
  };
  const names = {
    devicePlugin: [{ name: 'time-slicing-config', namespace: 'gpu-operator' }],
    migParted: [
      { name: 'default-mig-parted-config', namespace: 'gpu-operator' },
    ],
  };
  const findings: Finding[] = [];
  const source = { docs: [], patchFiles: new Set<string>() };
  const pools = await builtPools([root], {
    source,
    catalog: builtinCatalog,
    migStrategy: 'single',
    configMaps: new Map([[root, gpuConfigMapsOf(root.objects, names)]]),
    names,
    findings,
    stack,
  });
  checkNodeOverlayCapacity([root], pools, source, findings);
  return findings;
}

describe('the advertised GPUs of an unlabelled pool', () => {
  it("are the GPU Operator's default config's: 4 nvidia.com/gpu per GPU matches the NodeOverlay", async () => {
    expect(await overlayFindings(timeSlicedByDefault)).toEqual([]);
  });

  it('are whole GPUs without a sharing default, so the same NodeOverlay overstates them', async () => {
    expect((await overlayFindings(undefined)).map(f => f.rule)).toEqual([
      'node-overlay-capacity',
    ]);
  });
});
