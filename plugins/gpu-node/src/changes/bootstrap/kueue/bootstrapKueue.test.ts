/**
 * The bootstrap installs Kueue where the cluster profile enables it: its
 * chart at the profile's release, in the form the repository installs
 * charts, with the Configuration the queues need, decoded against Kueue
 * v0.19.2's own Go types (`__fixtures__/SOURCES.md`).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  isGpuInputError,
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { FsRepoTree } from '../../../repo/tree';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';
import { kueueConfigurationErrors } from './__testUtils__/kueueConfigurationTypes';

const options = { operatorChartVersion: 'v26.7.0', binPacking: false };

const draKueue = resolveClusterProfile({
  name: 'eks-dra',
  migStrategy: 'single',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.2',
  dra: { karpenterNvidiaGate: true, consumableShares: 4 },
  kueue: true,
});

async function tempRepo(files: Record<string, string> = {}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-kueue-boot-'));
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return { dir, tree: new FsRepoTree(dir) };
}

async function bootstrapped(cluster: ClusterProfile, files = {}) {
  const repo = await tempRepo(files);
  const change = await buildBootstrapChangeSet(repo.tree, cluster, options);
  await writeChangeSet(repo.tree, change);
  return { ...repo, change };
}

/** The Configuration the release's values give Kueue's ConfigMap. */
const configurationOf = (values: any) =>
  parse(values.managerConfig.controllerManagerConfigYaml);

describe("the bootstrap's Kueue release", () => {
  const dirs: string[] = [];
  afterAll(() =>
    Promise.all(dirs.map(d => fs.rm(d, { recursive: true, force: true }))),
  );
  const run = async (cluster: ClusterProfile, files = {}) => {
    const repo = await bootstrapped(cluster, files);
    dirs.push(repo.dir);
    return repo;
  };

  it('installs Kueue 0.19.2 from its OCI chart, with a Configuration Kueue decodes that admits Deployments and maps the DRA DeviceClasses, and keeps it on the next run', async () => {
    const { tree, change } = await run(draKueue);
    const kustomization = parse(
      (await tree.readFile(
        'clusters/eks-dra/kueue-controller/kustomization.yaml',
      ))!,
    );
    expect(kustomization.helmCharts).toEqual([
      {
        name: 'kueue',
        repo: 'oci://registry.k8s.io/kueue/charts',
        version: '0.19.2',
        releaseName: 'kueue',
        namespace: 'kueue-system',
        includeCRDs: true,
        valuesFile: 'values.yaml',
      },
    ]);
    const configuration = configurationOf(
      parse(
        (await tree.readFile('clusters/eks-dra/kueue-controller/values.yaml'))!,
      ),
    );
    expect(configuration).toMatchObject({
      apiVersion: 'config.kueue.x-k8s.io/v1beta2',
      kind: 'Configuration',
    });
    expect(kueueConfigurationErrors(configuration)).toEqual([]);
    expect(configuration.integrations.frameworks).toEqual(
      expect.arrayContaining(['batch/job', 'pod', 'deployment']),
    );
    // The resources the queues count DRA claims in (gpu-common kueueDeviceClasses.ts).
    expect(configuration.resources.deviceClassMappings).toEqual([
      { name: 'nvidia.com/gpu', deviceClassNames: ['gpu.nvidia.com'] },
      { name: 'mig.nvidia.com', deviceClassNames: ['mig.nvidia.com'] },
    ]);
    expect(change.notes.join('\n')).toContain(
      "Kueue 0.19.2 is installed by the bootstrap's release in `clusters/eks-dra/kueue-controller/`",
    );
    const again = await buildBootstrapChangeSet(tree, draKueue, options);
    expect(again.empty).toBe(true);
  });

  it("pins the profile's kueueVersion, maps no DeviceClass without DRA, and refuses a Kueue older than v0.19", async () => {
    const cluster = resolveClusterProfile({
      name: 'dev',
      kueue: true,
      kueueVersion: '0.19.1',
    });
    const { tree } = await run(cluster);
    const kustomization = parse(
      (await tree.readFile(
        'clusters/dev/kueue-controller/kustomization.yaml',
      ))!,
    );
    expect(kustomization.helmCharts[0].version).toBe('0.19.1');
    const configuration = configurationOf(
      parse(
        (await tree.readFile('clusters/dev/kueue-controller/values.yaml'))!,
      ),
    );
    expect(kueueConfigurationErrors(configuration)).toEqual([]);
    // The queues quota GPUs only: Kueue must not refuse a pod for its CPU.
    expect(configuration.resources).toEqual({
      excludeResourcePrefixes: ['cpu', 'memory', 'ephemeral-storage'],
    });

    let refusal: unknown;
    try {
      resolveClusterProfile({
        name: 'dev',
        kueue: true,
        kueueVersion: '0.18.3',
      });
    } catch (e) {
      refusal = e;
    }
    expect(isGpuInputError(refusal)).toBe(true);
    expect((refusal as any).issues).toEqual([
      expect.objectContaining({
        path: 'kueueVersion',
        message: expect.stringContaining(
          'must be a Kueue release of v0.19 or later',
        ),
      }),
    ]);
  });

  it('writes no Kueue where the profile does not enable it', async () => {
    const { tree } = await run(resolveClusterProfile({ name: 'dev' }));
    expect(await tree.listFiles('clusters/dev/kueue-controller')).toEqual([]);
  });

  it('a Flux repository gets a HelmRepository and HelmRelease valid against the Flux CRDs, and the values carry the same Configuration', async () => {
    const { tree } = await run(draKueue, {
      'clusters/eks-dra/flux/karpenter.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: karpenter, namespace: flux-system}
spec:
  chart: {spec: {chart: karpenter, version: 1.15.1, sourceRef: {kind: HelmRepository, name: karpenter}}}
`,
    });
    const objects = parseAllDocuments(
      (await tree.readFile('clusters/eks-dra/kueue-controller/release.yaml'))!,
    ).map(d => d.toJS());
    const crds = path.join(
      __dirname,
      '..',
      'draDriver',
      '__fixtures__',
      'crds',
    );
    const release = objects.find(o => o.kind === 'HelmRelease');
    const repository = objects.find(o => o.kind === 'HelmRepository');
    expect(
      crdSchemaErrors(
        release,
        path.join(
          crds,
          'flux-helm-controller-v1.6.3_helm.toolkit.fluxcd.io_helmreleases.yaml',
        ),
      ),
    ).toEqual([]);
    expect(
      crdSchemaErrors(
        repository,
        path.join(
          crds,
          'flux-source-controller-v1.9.1_source.toolkit.fluxcd.io_helmrepositories.yaml',
        ),
      ),
    ).toEqual([]);
    expect(release.metadata.namespace).toBe('flux-system');
    expect(release.spec.targetNamespace).toBe('kueue-system');
    expect(repository.spec.url).toBe('oci://registry.k8s.io/kueue/charts');
    expect(
      kueueConfigurationErrors(configurationOf(release.spec.values)),
    ).toEqual([]);
  });

  it('leaves a Kueue the repository installs as it is, and says what its Configuration must hold', async () => {
    const { tree, change } = await run(draKueue, {
      'platform/kueue/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
helmCharts:
  - name: kueue
    repo: oci://registry.k8s.io/kueue/charts
    version: 0.19.2
    releaseName: kueue
    namespace: kueue-system
`,
    });
    expect(await tree.listFiles('clusters/eks-dra/kueue-controller')).toEqual(
      [],
    );
    expect(change.notes.join('\n')).toContain(
      'resources.deviceClassMappings: [{name: nvidia.com/gpu, deviceClassNames: [gpu.nvidia.com]}, {name: mig.nvidia.com, deviceClassNames: [mig.nvidia.com]}]',
    );
  });

  /** Kueue's own manifests of v0.19.2 (`__fixtures__/SOURCES.md`): its Deployment and Configuration ConfigMap. */
  const kueueManifests = () =>
    fs.readFile(
      path.join(
        __dirname,
        '__fixtures__',
        'kueue-v0.19.2_manifests-controller.yaml',
      ),
      'utf8',
    );
  const MAPPINGS_NOTE =
    'resources.deviceClassMappings: [{name: nvidia.com/gpu, deviceClassNames: [gpu.nvidia.com]}, {name: mig.nvidia.com, deviceClassNames: [mig.nvidia.com]}]';

  it("leaves Kueue's plain manifests vendored in the repository as they are: no second Kueue, and the note says what their Configuration must hold", async () => {
    const { tree, change } = await run(draKueue, {
      'platform/kueue/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [manifests.yaml]\n',
      'platform/kueue/manifests.yaml': await kueueManifests(),
    });
    expect(await tree.listFiles('clusters/eks-dra/kueue-controller')).toEqual(
      [],
    );
    const notes = change.notes.join('\n');
    expect(notes).toContain(
      "Kueue is installed by Kueue's plain manifests (Deployment `kueue-system/kueue-controller-manager` in `platform/kueue/manifests.yaml`) (left as it is)",
    );
    expect(notes).toContain(
      'resources.excludeResourcePrefixes: [cpu, memory, ephemeral-storage]',
    );
    expect(notes).toContain(MAPPINGS_NOTE);
    expect(await tree.readFile('platform/kueue/manifests.yaml')).toBe(
      await kueueManifests(),
    );
  });

  it("reads the Configuration of Kueue's plain manifests: the note names only what it lacks, or says it holds what the queues need", async () => {
    const withResources = (resources: string) =>
      kueueManifests().then(text =>
        text.replace(
          '    integrations:\n',
          `    resources:\n${resources}    integrations:\n`,
        ),
      );
    const prefixesOnly = await run(draKueue, {
      'platform/kueue/manifests.yaml': await withResources(
        '      excludeResourcePrefixes: [cpu, memory, ephemeral-storage]\n',
      ),
    });
    const lacking = prefixesOnly.change.notes.join('\n');
    expect(lacking).toContain(
      "Kueue is installed by Kueue's plain manifests (Deployment `kueue-system/kueue-controller-manager` in `platform/kueue/manifests.yaml`) (left as it is): its Configuration must set `resources.deviceClassMappings: [",
    );
    expect(lacking).not.toContain('excludeResourcePrefixes');
    expect(lacking).not.toContain('`deployment` integration');

    const complete = await run(draKueue, {
      'platform/kueue/manifests.yaml': await withResources(
        [
          '      excludeResourcePrefixes: [cpu, memory, ephemeral-storage]',
          '      deviceClassMappings:',
          '      - {name: nvidia.com/gpu, deviceClassNames: [gpu.nvidia.com]}',
          '      - {name: mig.nvidia.com, deviceClassNames: [mig.nvidia.com]}',
          '',
        ].join('\n'),
      ),
    });
    expect(complete.change.notes.join('\n')).toContain(
      'its Configuration holds what the GPU queues need',
    );
    expect(
      await complete.tree.listFiles('clusters/eks-dra/kueue-controller'),
    ).toEqual([]);
  });

  it("leaves Kueue's release manifests a kustomization applies from GitHub as they are", async () => {
    const url =
      'https://github.com/kubernetes-sigs/kueue/releases/download/v0.19.2/manifests.yaml';
    const { tree, change } = await run(draKueue, {
      'clusters/eks-dra/kueue/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ${url}\n`,
    });
    expect(await tree.listFiles('clusters/eks-dra/kueue-controller')).toEqual(
      [],
    );
    const notes = change.notes.join('\n');
    expect(notes).toContain(
      `Kueue is installed by the kustomization \`clusters/eks-dra/kueue/kustomization.yaml\` (Kueue's release manifests \`${url}\`) (left as it is)`,
    );
    expect(notes).toContain(MAPPINGS_NOTE);
  });

  it('on EKS Auto Mode too', async () => {
    const cluster = resolveClusterProfile({
      name: 'auto',
      provider: 'eks-auto-mode',
      kueue: true,
    });
    const { tree } = await run(cluster);
    expect(
      parse(
        (await tree.readFile(
          'clusters/auto/kueue-controller/kustomization.yaml',
        ))!,
      ).helmCharts[0].name,
    ).toBe('kueue');
  });

  it('the check decodes as Kueue does: a field the types lack fails it', () => {
    expect(
      kueueConfigurationErrors({
        apiVersion: 'config.kueue.x-k8s.io/v1beta2',
        kind: 'Configuration',
        resources: { deviceClassMapping: [] },
        integrations: { frameworks: ['deployments'] },
      }),
    ).toEqual([
      '.resources.deviceClassMapping: unknown field of Resources',
      'integration deployments is unknown',
    ]);
  });
});
