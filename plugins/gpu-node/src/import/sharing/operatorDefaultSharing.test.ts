import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  defaultClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { readRepoState } from '../../repo/readRepoState';
import type { FsRepoTree } from '../../repo/tree';
import { copyOf } from '../__testUtils__/fixtureCopies';
import { operatorDefaultSharing } from './operatorDefaultSharing';

const cluster: ClusterProfile = { ...defaultClusterProfile, name: 'shared' };
const RELEASE = 'clusters/shared/gpu-operator/helmrelease.yaml';

/** The fixture's GPU Operator release with its `devicePlugin` values replaced. */
async function withDevicePluginValues(tree: FsRepoTree, values: string) {
  const text = (await tree.readFile(RELEASE))!;
  await tree.writeFile(
    RELEASE,
    text.slice(0, text.indexOf('    devicePlugin:')) + values,
  );
}

const readDefault = async (tree: FsRepoTree) =>
  operatorDefaultSharing(
    tree,
    undefined,
    cluster,
    await readRepoState(tree, undefined, cluster.name, {
      catalog: builtinCatalog,
    }),
  );

describe('the GPU Operator’s default device-plugin config', () => {
  let tree: FsRepoTree;
  beforeEach(async () => {
    tree = await copyOf('shared-gpus-repo');
  });
  afterEach(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('is read from the ConfigMap the chart creates from its own values', async () => {
    await withDevicePluginValues(
      tree,
      [
        '    devicePlugin:',
        '      config:',
        '        create: true',
        '        name: chart-made',
        '        default: mps-2',
        '        data:',
        '          mps-2: |-',
        '            version: v1',
        '            sharing:',
        '              mps:',
        '                renameByDefault: true',
        '                resources:',
        '                - name: nvidia.com/gpu',
        '                  replicas: 2',
        '',
      ].join('\n'),
    );
    expect((await readDefault(tree)).sharing).toMatchObject({
      mode: 'mps',
      slicesPerGpu: 2,
      renameByDefault: true,
    });
  });

  it('gives whole GPUs when the default key does not share', async () => {
    await withDevicePluginValues(
      tree,
      '    devicePlugin:\n      config: { name: time-slicing-config-all }\n',
    );
    expect(await readDefault(tree)).toEqual({ findings: [] });
  });

  it('cannot be told when values the import cannot read may set it, and says so', async () => {
    // Flux merges spec.values over valuesFrom: the Secret decides here.
    await withDevicePluginValues(tree, '');
    const text = (await tree.readFile(RELEASE))!;
    await tree.writeFile(
      RELEASE,
      text.replace(
        '  values:\n',
        '  valuesFrom:\n    - kind: Secret\n      name: operator-values\n  values:\n',
      ),
    );
    const found = await readDefault(tree);
    expect(found.sharing).toBeUndefined();
    expect(found.findings).toEqual([
      expect.objectContaining({
        kind: 'not-understood',
        field: 'devicePlugin.config.default',
        message: expect.stringMatching(/cannot be told: .*Secret.* may set it/),
      }),
    ]);
  });
});
