import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { fluxDevicePluginChart } from '../../changes/bootstrap/__fixtures__/gpuStackShapes';
import { MemoryRepoTree } from '../tree';
import { standaloneDefaultSharing } from './devicePluginChartDefault';
import { readGpuStack } from './readGpuStack';

const prod = resolveClusterProfile({ name: 'prod' });

/** A config of the chart's `config.map`, as its values carry it (a YAML string). */
const sharing = (replicas: number) =>
  `|-\n          version: v1\n          sharing:\n            timeSlicing:\n              renameByDefault: false\n              resources:\n              - name: nvidia.com/gpu\n                replicas: ${replicas}`;
const WHOLE = `|-\n          version: v1\n          flags:\n            migStrategy: none`;

async function defaultOf(values: string) {
  const files = { 'clusters/prod/dp.yaml': fluxDevicePluginChart(values) };
  const tree = new MemoryRepoTree(files);
  const stack = await readGpuStack(
    tree,
    prod,
    Object.entries(files).map(([path, text]) => ({ path, text })),
  );
  const sharingRead = await standaloneDefaultSharing(tree, undefined, prod);
  return { stack: stack.devicePlugin?.sharesByDefault, sharingRead };
}

describe('the default config of a standalone device-plugin release', () => {
  it.each([
    [
      'the entry named default (fallback "named")',
      `    config:\n      map:\n        default: ${sharing(10)}\n        whole: ${WHOLE}`,
      10,
    ],
    [
      'the only entry (fallback "single")',
      `    config:\n      map:\n        shared: ${sharing(4)}`,
      4,
    ],
    [
      'the entry config.default names',
      `    config:\n      default: shared\n      map:\n        whole: ${WHOLE}\n        shared: ${sharing(2)}`,
      2,
    ],
  ])('%s shares every GPU node', async (_case, values, replicas) => {
    const { stack, sharingRead } = await defaultOf(values);
    expect(sharingRead).toMatchObject({
      mode: 'time-slicing',
      slicesPerGpu: replicas,
      renameByDefault: false,
    });
    expect(stack).toMatch(
      new RegExp(
        `^time-slicing, ${replicas} per GPU, as \`nvidia.com/gpu\`: its default config`,
      ),
    );
  });

  it.each([
    [
      'a default without sharing',
      `    config:\n      map:\n        default: ${WHOLE}\n        shared: ${sharing(4)}`,
    ],
    [
      'two entries, none named default nor chosen',
      `    config:\n      map:\n        a: ${sharing(4)}\n        b: ${WHOLE}`,
    ],
    [
      'an external ConfigMap (config.name)',
      `    config:\n      name: nvidia-device-plugin-configs\n      map:\n        default: ${sharing(4)}`,
    ],
    ['no config at all', '    gfd:\n      enabled: true'],
  ])(
    '%s: whole GPUs by default (as far as the release says)',
    async (_case, values) => {
      const { stack, sharingRead } = await defaultOf(values);
      expect(sharingRead).toBeUndefined();
      expect(stack).toBeUndefined();
    },
  );
});
