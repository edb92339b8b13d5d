import { writes } from '../__testUtils__/writes';
import { parse, parseAllDocuments } from 'yaml';
import {
  checkDevicePluginConfig,
  checkMigPartedConfig,
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { promises as fs } from 'fs';
import { join } from 'path';
import { FsRepoTree, MemoryRepoTree } from '../../repo/tree';
import { hasSchema, schemaError } from '../../validate/schemas';
import { removeTempRepo, writeTempRepo } from '../__fixtures__/gitopsRepo';
import { writeChangeSet } from '../stagedTree';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { otherThanWiring } from '../__testUtils__/otherThanWiring';

const FIXTURE_GITOPS_REPO = join(
  __dirname,
  '../../../../../test/fixtures/gitops-repo',
);

const cluster = resolveClusterProfile({
  name: 'dev',
  kubernetesVersion: '1.36.2',
  binPacking: true,
  karpenterVersion: '1.14.1',
});
const options = { operatorChartVersion: 'v26.7.0', binPacking: true };

async function fixtureCopy(): Promise<MemoryRepoTree> {
  const fixture = new FsRepoTree(FIXTURE_GITOPS_REPO);
  const files: Record<string, string> = {};
  for (const file of await fixture.listFiles('')) {
    files[file] = (await fixture.readFile(file))!;
  }
  return new MemoryRepoTree(files);
}

describe('buildBootstrapChangeSet', () => {
  it('writes the GPU Operator values with the device plugin only on GPU nodes', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree(),
      cluster,
      options,
    );
    const values = parse(
      writes(changeSet).find(
        c => c.path === 'clusters/dev/gpu-operator/values.yaml',
      )!.content,
    );
    expect(values.devicePlugin.config).toEqual({
      create: false,
      name: cluster.devicePluginConfigMap.name,
      default: 'default',
    });
    expect(values.migManager.config).toMatchObject({
      name: cluster.migPartedConfigMap.name,
      default: 'all-disabled',
    });
    expect(values.mig.strategy).toBe(cluster.migStrategy);
    expect(values.daemonsets.tolerations).toContainEqual({
      key: 'nvidia.com/gpu',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
    const operatorTerms =
      values.operator.affinity.nodeAffinity
        .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchExpressions;
    expect(operatorTerms).toContainEqual({
      key: 'feature.node.kubernetes.io/pci-10de.present',
      operator: 'DoesNotExist',
    });
    const resourceNames = values.dcgmExporter.env.find(
      (e: { name: string }) => e.name === 'NVIDIA_RESOURCE_NAMES',
    ).value;
    expect(resourceNames.split(',')).toContain('nvidia.com/gpu.shared');
  });

  it('writes valid default device-plugin and all-disabled mig configs and a valid EC2NodeClass', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree(),
      cluster,
      options,
    );
    const content = (path: string) =>
      writes(changeSet).find(c => c.path === path)?.content;
    const devicePlugin = parse(
      content('clusters/dev/gpu/device-plugin/default.yaml')!,
    );
    expect(
      checkDevicePluginConfig(devicePlugin, { requireSharing: false }),
    ).toEqual([]);
    const mig = parse(content('clusters/dev/gpu/mig/config.yaml')!);
    expect(checkMigPartedConfig(mig)).toEqual([]);
    expect(mig['mig-configs']['all-disabled']).toEqual([
      { devices: 'all', 'mig-enabled': false },
    ]);
    const nodeClass = parse(content('clusters/dev/gpu/nodeclasses/gpu.yaml')!);
    // The real kubernetes-models schema of karpenter.k8s.aws/v1 EC2NodeClass.
    expect(hasSchema(nodeClass.apiVersion, nodeClass.kind)).toBe(true);
    expect(schemaError(nodeClass)).toBeUndefined();
    expect(nodeClass.spec.amiSelectorTerms).toEqual([
      { alias: 'al2023@latest' },
    ]);
    const kustomization = parse(
      content('clusters/dev/gpu/kustomization.yaml')!,
    );
    expect(kustomization.resources).toEqual([
      'nodeclasses/gpu.yaml',
      'scheduler/gpu-binpack.yaml',
    ]);
    expect(kustomization.configMapGenerator).toEqual([
      {
        name: cluster.devicePluginConfigMap.name,
        namespace: 'gpu-operator',
        files: ['default=device-plugin/default.yaml'],
      },
      {
        name: cluster.migPartedConfigMap.name,
        namespace: 'gpu-operator',
        files: ['config.yaml=mig/config.yaml'],
      },
    ]);
    const scheduler = parseAllDocuments(
      content('clusters/dev/gpu/scheduler/gpu-binpack.yaml')!,
    )
      .map(d => d.toJS())
      .find(o => o.kind === 'ConfigMap');
    const profile = parse(scheduler.data['config.yaml']).profiles[0];
    expect(profile.schedulerName).toBe('gpu-binpack');
    expect(profile.pluginConfig[0].args.scoringStrategy.type).toBe(
      'MostAllocated',
    );
    expect(
      profile.pluginConfig[0].args.scoringStrategy.resources,
    ).toContainEqual({
      name: 'nvidia.com/gpu',
      weight: 5,
    });
  });

  it('keeps what an existing GPU folder holds (comments, pools, configs) and is idempotent', async () => {
    const tree = await fixtureCopy();
    // Neither the bootstrap nor the profile asks for the scheduler.
    const withoutScheduler = { ...cluster, binPacking: false };
    const first = await buildBootstrapChangeSet(tree, withoutScheduler, {
      ...options,
      binPacking: false,
    });
    const kustomization = writes(first).find(
      c => c.path === 'clusters/dev/gpu/kustomization.yaml',
    )!;
    expect(kustomization.action).toBe('update');
    expect(kustomization.content).toContain(
      '# GPU capacity of the dev cluster',
    );
    expect(kustomization.content).toContain('nodepools/gpu-t4-ts4.yaml');
    expect(kustomization.content).toContain('ts-4=device-plugin/ts-4.yaml');
    expect(kustomization.content).toContain(
      'default=device-plugin/default.yaml',
    );
    // all-disabled already exists in the fixture's mig config: untouched.
    expect(first.changes.map(c => c.path)).not.toContain(
      'clusters/dev/gpu/mig/config.yaml',
    );
    expect(first.changes.map(c => c.path)).not.toContain(
      'clusters/dev/gpu/scheduler/gpu-binpack.yaml',
    );

    await writeChangeSet(tree, first);
    const second = await buildBootstrapChangeSet(tree, withoutScheduler, {
      ...options,
      binPacking: false,
    });
    expect(second).toMatchObject({ changes: [], empty: true });
  });

  it('does not write a second EC2NodeClass when a pool file already defines it', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu/nodepools/gpu-l4.yaml':
        'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\nspec: {}\n',
    });
    const changeSet = await buildBootstrapChangeSet(tree, cluster, options);
    const paths = changeSet.changes.map(c => c.path);
    expect(paths).not.toContain('clusters/dev/gpu/nodeclasses/gpu.yaml');
    const kustomization = parse(
      writes(changeSet).find(
        c => c.path === 'clusters/dev/gpu/kustomization.yaml',
      )!.content,
    );
    expect(kustomization.resources).toEqual(['scheduler/gpu-binpack.yaml']);
  });

  it('does not write a second EC2NodeClass when another file of the cluster’s folder defines it (an import leaves one in karpenter/)', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/karpenter/nodeclasses.yaml':
        'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\nspec:\n  role: team-role\n',
      // Another cluster's node class of that name is no reason.
      'clusters/prod/karpenter/nodeclasses.yaml':
        'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\nspec: {}\n',
    });
    const changeSet = await buildBootstrapChangeSet(tree, cluster, options);
    expect(changeSet.changes.map(c => c.path)).not.toContain(
      'clusters/dev/gpu/nodeclasses/gpu.yaml',
    );
    const other = await buildBootstrapChangeSet(
      tree,
      resolveClusterProfile({
        name: 'staging',
        kubernetesVersion: '1.36.2',
        binPacking: true,
        karpenterVersion: '1.14.1',
      }),
      options,
    );
    expect(other.changes.map(c => c.path)).toContain(
      'clusters/staging/gpu/nodeclasses/gpu.yaml',
    );
  });

  it('keeps the entries and comments of a hand-written GPU kustomization and mig config', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu/kustomization.yaml': [
        '# GPU folder of dev, written by the platform team.',
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources:',
        '  - legacy/gpu-pool.yaml # kept until Q3',
        'configMapGenerator:',
        "  # the team's own device-plugin configs",
        `  - name: ${cluster.devicePluginConfigMap.name}`,
        '    namespace: gpu-operator',
        '    files:',
        '      - ts-2=device-plugin/ts-2.yaml',
        '',
      ].join('\n'),
      'clusters/dev/gpu/mig/config.yaml':
        '# tuned by hand\nversion: v1\nmig-configs:\n  all-1g.10gb:\n    - devices: all\n      mig-enabled: true\n      mig-devices:\n        1g.10gb: 7\n',
    });
    const changeSet = await buildBootstrapChangeSet(tree, cluster, options);
    const content = (path: string) =>
      writes(changeSet).find(c => c.path === path)!.content;
    const kustomizationText = content('clusters/dev/gpu/kustomization.yaml');
    expect(kustomizationText).toContain(
      '# GPU folder of dev, written by the platform team.',
    );
    expect(kustomizationText).toContain(
      '- legacy/gpu-pool.yaml # kept until Q3',
    );
    expect(kustomizationText).toContain(
      "# the team's own device-plugin configs",
    );
    const kustomization = parse(kustomizationText);
    expect(kustomization.resources).toEqual([
      'legacy/gpu-pool.yaml',
      'nodeclasses/gpu.yaml',
      'scheduler/gpu-binpack.yaml',
    ]);
    expect(kustomization.generatorOptions).toEqual({
      disableNameSuffixHash: true,
    });
    const generatorFiles = Object.fromEntries(
      kustomization.configMapGenerator.map(
        (g: { name: string; files: string[] }) => [g.name, g.files],
      ),
    );
    expect(generatorFiles).toEqual({
      [cluster.devicePluginConfigMap.name]: [
        'default=device-plugin/default.yaml',
        'ts-2=device-plugin/ts-2.yaml',
      ],
      [cluster.migPartedConfigMap.name]: ['config.yaml=mig/config.yaml'],
    });
    const migText = content('clusters/dev/gpu/mig/config.yaml');
    expect(migText).toContain('# tuned by hand');
    expect(parse(migText)['mig-configs']).toEqual({
      'all-1g.10gb': [
        {
          devices: 'all',
          'mig-enabled': true,
          'mig-devices': { '1g.10gb': 7 },
        },
      ],
      'all-disabled': [{ devices: 'all', 'mig-enabled': false }],
    });
  });

  it('keeps a hand-written all-disabled entry as it is', async () => {
    const mig =
      'version: v1\nmig-configs:\n  all-disabled:\n    - devices: [0, 1]\n      mig-enabled: false\n';
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu/mig/config.yaml': mig,
    });
    const changeSet = await buildBootstrapChangeSet(tree, cluster, options);
    expect(changeSet.changes.map(c => c.path)).not.toContain(
      'clusters/dev/gpu/mig/config.yaml',
    );
  });
});

describe('buildBootstrapChangeSet: files it did not write', () => {
  const HAND_WRITTEN = '# ours, written by hand\nkind: ConfigMap\n';
  /** Every file the bootstrap writes whole, for the profile and options above. */
  const WHOLE_FILES = [
    'clusters/dev/gpu-operator/values.yaml',
    'clusters/dev/gpu-operator/kustomization.yaml',
    'clusters/dev/gpu/device-plugin/default.yaml',
    'clusters/dev/gpu/nodeclasses/gpu.yaml',
    'clusters/dev/gpu/scheduler/gpu-binpack.yaml',
  ];
  // Without Karpenter: only the files above.
  const static_ = resolveClusterProfile({
    name: 'dev',
    kubernetesVersion: '1.36.2',
    binPacking: true,
    provider: 'static',
  });

  /** The bytes of every file under `dir`. */
  async function bytes(dir: string): Promise<Record<string, Buffer>> {
    const tree = new FsRepoTree(dir);
    const out: Record<string, Buffer> = {};
    for (const file of await tree.listFiles('')) {
      out[file] = await fs.readFile(join(dir, file));
    }
    return out;
  }

  it('writes each of them whole on an empty repository', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree(),
      cluster,
      options,
    );
    const created = changeSet.changes
      .filter(c => c.action === 'create')
      .map(c => c.path);
    expect(created).toEqual(expect.arrayContaining(WHOLE_FILES));
  });

  it.each(WHOLE_FILES)(
    'refuses a hand-written %s, naming it and what to do, and leaves the repository byte-identical',
    async file => {
      const dir = await writeTempRepo({ [file]: HAND_WRITTEN });
      try {
        const before = await bytes(dir);
        const error = await buildBootstrapChangeSet(
          new FsRepoTree(dir),
          cluster,
          options,
        ).catch(e => e);
        expect(isGpuInputError(error)).toBe(true);
        expect(error.issues).toEqual([
          {
            path: file,
            rule: 'bootstrap-file-not-managed',
            message: expect.stringMatching(
              new RegExp(
                `^${file.replace(/\./g, '\\.')} exists and the bootstrap did not write it: the bootstrap writes .+ there and never replaces a file it did not write\\. .+`,
              ),
            ),
          },
        ]);
        expect(await bytes(dir)).toEqual(before);
      } finally {
        await removeTempRepo(dir);
      }
    },
  );

  it('names every such file at once', async () => {
    const error = await buildBootstrapChangeSet(
      new MemoryRepoTree({
        'clusters/dev/gpu-operator/values.yaml': HAND_WRITTEN,
        'clusters/dev/gpu/scheduler/gpu-binpack.yaml': HAND_WRITTEN,
      }),
      cluster,
      options,
    ).catch(e => e);
    expect(error.issues.map((i: { path: string }) => i.path)).toEqual([
      'clusters/dev/gpu-operator/values.yaml',
      'clusters/dev/gpu/scheduler/gpu-binpack.yaml',
    ]);
  });

  it('writes over a blank file, and over its own files again (their header), changing nothing that is right', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu-operator/values.yaml': '\n  \n',
    });
    const first = await buildBootstrapChangeSet(tree, static_, options);
    expect(
      first.changes.find(
        c => c.path === 'clusters/dev/gpu-operator/values.yaml',
      ),
    ).toMatchObject({ action: 'update' });
    await writeChangeSet(tree, first);
    expect(
      (await buildBootstrapChangeSet(tree, static_, options)).changes,
    ).toEqual([]);
    // Its own values file, edited by someone: brought back, not refused.
    const values = 'clusters/dev/gpu-operator/values.yaml';
    const own = (await tree.readFile(values))!;
    await tree.writeFile(
      values,
      own.replace('strategy: mixed', 'strategy: single'),
    );
    const again = await buildBootstrapChangeSet(tree, static_, options);
    expect(writes(again)).toEqual([
      expect.objectContaining({ path: values, content: own }),
    ]);
  });

  it('keeps a hand-written file in the node class’s place that defines that node class', async () => {
    const file = 'clusters/dev/gpu/nodeclasses/gpu.yaml';
    const handWritten =
      '# the team’s own\napiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\nspec:\n  role: team-role\n';
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree({ [file]: handWritten }),
      cluster,
      options,
    );
    expect(changeSet.changes.map(c => c.path)).not.toContain(file);
    const kustomization = parse(
      writes(changeSet).find(
        c => c.path === 'clusters/dev/gpu/kustomization.yaml',
      )!.content,
    );
    expect(kustomization.resources).toEqual(['scheduler/gpu-binpack.yaml']);
  });
});

describe('buildBootstrapChangeSet: ConfigMaps the team wrote by hand', () => {
  const DEVICE_PLUGIN = [
    '# The team’s named device-plugin configs.',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: nvidia-device-plugin',
    '  namespace: gpu-operator',
    'data:',
    '  any: "version: v1\\nflags:\\n  migStrategy: none\\n"',
    '  t4-ts-4: "version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n      - name: nvidia.com/gpu\\n        replicas: 4\\n"',
    '',
  ].join('\n');
  const MIG_PARTED = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: mig-parted',
    '  namespace: gpu-operator',
    'data:',
    '  config.yaml: |',
    '    version: v1',
    '    mig-configs:',
    '      all-disabled:',
    '        - devices: all',
    '          mig-enabled: false',
    '      all-3g.40gb:',
    '        - devices: all',
    '          mig-enabled: true',
    '          mig-devices: { "3g.40gb": 2 }',
    '',
  ].join('\n');
  const profile = resolveClusterProfile({
    name: 'dev',
    kubernetesVersion: '1.36.2',
    binPacking: true,
    provider: 'static',
    devicePluginConfigMap: {
      name: 'nvidia-device-plugin',
      namespace: 'gpu-operator',
    },
    migPartedConfigMap: { name: 'mig-parted', namespace: 'gpu-operator' },
  });
  const contentOf = (
    changeSet: Awaited<ReturnType<typeof buildBootstrapChangeSet>>,
    path: string,
  ) => writes(changeSet).find(c => c.path === path)?.content;

  it('generates no ConfigMap of the device plugin’s name and writes no default key, and says which keys requests use', async () => {
    const files = {
      'clusters/dev/nvidia/device-plugin.yaml': DEVICE_PLUGIN,
    };
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree(files),
      profile,
      options,
    );
    const paths = changeSet.changes.map(c => c.path);
    expect(paths).not.toContain('clusters/dev/nvidia/device-plugin.yaml');
    expect(paths).not.toContain('clusters/dev/gpu/device-plugin/default.yaml');
    const kustomization = parse(
      contentOf(changeSet, 'clusters/dev/gpu/kustomization.yaml')!,
    );
    // The mig-parted ConfigMap is still the product's.
    expect(kustomization.configMapGenerator).toEqual([
      {
        name: 'mig-parted',
        namespace: 'gpu-operator',
        files: ['config.yaml=mig/config.yaml'],
      },
    ]);
    const values = parse(
      contentOf(changeSet, 'clusters/dev/gpu-operator/values.yaml')!,
    );
    // No `default` key in the team's ConfigMap: nodes without a label get
    // the device plugin's own defaults.
    expect(values.devicePlugin.config).toEqual({
      create: false,
      name: 'nvidia-device-plugin',
      default: '',
    });
    expect(otherThanWiring(changeSet.notes)).toEqual([
      "The device plugin reads ConfigMap `gpu-operator/nvidia-device-plugin`, written by hand in `clusters/dev/nvidia/device-plugin.yaml` (the cluster profile's `devicePluginConfigMap`): the bootstrap generates no ConfigMap of that name and writes no `default` config, and the product never edits it. Requests use only its keys: `any` (whole GPUs), `t4-ts-4` (time-slicing, 4 per GPU, as `nvidia.com/gpu`); one that needs another is refused, naming the key and the content to add. It has no key `default` that gives whole GPUs, so `devicePlugin.config.default` is empty in `clusters/dev/gpu-operator/values.yaml`: GPU nodes without a `nvidia.com/device-plugin.config` label get the device plugin's own defaults, whole GPUs.",
    ]);
  });

  it('with both ConfigMaps written by hand, the GPU folder generates none and gets no mig-parted file; their defaults are used where they hold them', async () => {
    const files = {
      'clusters/dev/nvidia/device-plugin.yaml': DEVICE_PLUGIN.replace(
        '  any:',
        '  default:',
      ),
      'clusters/dev/nvidia/mig-parted.yaml': MIG_PARTED,
    };
    const tree = new MemoryRepoTree(files);
    const changeSet = await buildBootstrapChangeSet(tree, profile, options);
    expect(changeSet.changes.map(c => c.path).sort()).toEqual([
      'clusters/dev/gpu-operator/kustomization.yaml',
      'clusters/dev/gpu-operator/values.yaml',
      'clusters/dev/gpu/kustomization.yaml',
      'clusters/dev/gpu/scheduler/gpu-binpack.yaml',
    ]);
    const kustomization = parse(
      contentOf(changeSet, 'clusters/dev/gpu/kustomization.yaml')!,
    );
    expect(kustomization).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['scheduler/gpu-binpack.yaml'],
    });
    const values = parse(
      contentOf(changeSet, 'clusters/dev/gpu-operator/values.yaml')!,
    );
    expect(values.devicePlugin.config.default).toBe('default');
    expect(values.migManager.config).toEqual({
      create: false,
      name: 'mig-parted',
      default: 'all-disabled',
    });
    expect(otherThanWiring(changeSet.notes)[1]).toBe(
      "The MIG manager reads ConfigMap `gpu-operator/mig-parted`, written by hand in `clusters/dev/nvidia/mig-parted.yaml` (the cluster profile's `migPartedConfigMap`): the bootstrap generates no ConfigMap of that name and adds no `all-disabled` entry, and the product never edits it. Requests use only its mig-configs entries: `all-3g.40gb`, `all-disabled`; one that needs another is refused, naming the entry and the content to add.",
    );
    // Idempotent.
    await writeChangeSet(tree, changeSet);
    expect(
      (await buildBootstrapChangeSet(tree, profile, options)).changes,
    ).toEqual([]);
  });

  it('sets no mig-parted default its hand-written ConfigMap lacks', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree({
        'clusters/dev/nvidia/mig-parted.yaml': MIG_PARTED.replace(
          / {6}all-disabled:\n.*\n.*\n/,
          '',
        ),
      }),
      profile,
      options,
    );
    expect(
      parse(contentOf(changeSet, 'clusters/dev/gpu-operator/values.yaml')!)
        .migManager.config.default,
    ).toBe('');
    expect(otherThanWiring(changeSet.notes).join('\n')).toContain(
      'It has no `all-disabled` entry, so `migManager.config.default` is empty in `clusters/dev/gpu-operator/values.yaml`',
    );
  });

  it('generates the profile’s ConfigMaps when the team’s hand-written ones have other names', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree({
        'clusters/dev/nvidia/device-plugin.yaml': DEVICE_PLUGIN,
      }),
      resolveClusterProfile({
        name: 'dev',
        kubernetesVersion: '1.36.2',
        binPacking: true,
        provider: 'static',
      }),
      options,
    );
    expect(
      parse(
        contentOf(changeSet, 'clusters/dev/gpu/kustomization.yaml')!,
      ).configMapGenerator.map((g: { name: string }) => g.name),
    ).toEqual(['nvidia-device-plugin-configs', 'custom-mig-parted-config']);
    expect(otherThanWiring(changeSet.notes)).toEqual([]);
  });
});
