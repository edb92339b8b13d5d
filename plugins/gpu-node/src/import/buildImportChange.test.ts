import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  parseGpuRequest,
  parseGpuRequestYaml,
} from '@gpu-gitops/plugin-gpu-common';
import { buildRequestChange } from '../changes/buildRequestChange';
import { kustomizeBuild } from '../kustomize/build';
import { renderImportReport } from '../pr/renderImportReport';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { schemaError } from '../validate/schemas';
import { copyOf, snapshot } from './__testUtils__/fixtureCopies';
import {
  IMPORT_OWNER as OWNER,
  importCluster,
  importProfile,
  yamlDocs as docs,
} from './__testUtils__/importCluster';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

describe('importing a Karpenter v0.31 setup (Provisioners, AWSNodeTemplates)', () => {
  let tree: FsRepoTree;
  let before: Record<string, string>;
  beforeAll(async () => {
    tree = await copyOf('v1alpha5-repo');
    before = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('converts in place, adopts the GPU pools, writes request records; kustomize builds it', async () => {
    const change = await importCluster(tree, importProfile('legacy'));
    expect(change.verification?.verified).toEqual(['clusters/legacy']);
    const touched = change.changeSet.changes.map(c => [c.path, c.action]);
    expect(touched).toEqual([
      ['clusters/legacy/karpenter/default.yaml', 'update'],
      ['clusters/legacy/karpenter/nodetemplates.yaml', 'update'],
      ['clusters/legacy/karpenter/provisioners.yaml', 'update'],
      ['requests/ml/chat.yaml', 'create'],
      ['requests/ml/embeddings.yaml', 'create'],
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    // Everything else is byte-identical.
    for (const [file, text] of Object.entries(before)) {
      if (!touched.some(([p]) => p === file)) expect(after[file]).toBe(text);
    }
    // Comments survive the conversion.
    expect(after['clusters/legacy/karpenter/provisioners.yaml']).toMatch(
      /^# GPU capacity, written by hand for Karpenter v0\.31\.\n/,
    );
    expect(after['clusters/legacy/karpenter/provisioners.yaml']).toContain(
      '# A100 80GB cut into seven 1g.10gb MIG instances each.',
    );
    const karpenter = [
      ...docs(after['clusters/legacy/karpenter/provisioners.yaml']),
      ...docs(after['clusters/legacy/karpenter/nodetemplates.yaml']),
      ...docs(after['clusters/legacy/karpenter/default.yaml']),
    ];
    expect(karpenter.map(o => `${o.apiVersion} ${o.kind}`)).toEqual([
      'karpenter.sh/v1 NodePool',
      'karpenter.sh/v1 NodePool',
      'karpenter.k8s.aws/v1 EC2NodeClass',
      'karpenter.k8s.aws/v1 EC2NodeClass',
      'karpenter.sh/v1 NodePool',
    ]);
    for (const o of karpenter) expect(schemaError(o)).toBeUndefined();

    const [t4, a100] = karpenter;
    expect(t4.metadata.annotations).toEqual({
      'gpu.backstage.io/requests': 'ml/chat=3',
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu.shared',
      'gpu.backstage.io/gpu-model': 't4',
      'gpu.backstage.io/slices-per-gpu': '4',
      'gpu.backstage.io/limit-floor': '4',
    });
    expect(a100.metadata.annotations).toMatchObject({
      'gpu.backstage.io/requests': 'ml/embeddings=2',
      'gpu.backstage.io/sharing-mode': 'mig',
      'gpu.backstage.io/mig-profile': '1g.10gb',
      'gpu.backstage.io/resource-name': 'nvidia.com/mig-1g.10gb',
    });
    // The CPU pool is converted, not adopted.
    expect(karpenter[4].metadata.annotations).toBeUndefined();
    // Both serve a resource Karpenter learns only from NodeOverlays, which
    // an adoption does not write: the report says what that means.
    expect(
      change.findings
        .filter(f => /without NodeOverlays/.test(f.message))
        .map(f => f.object),
    ).toEqual(['NodePool "gpu-t4"', 'NodePool "gpu-a100-mig"']);

    const chat = parseGpuRequestYaml(after['requests/ml/chat.yaml']);
    expect(chat.spec).toMatchObject({
      owner: OWNER,
      cluster: 'legacy',
      gpu: {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 3,
        slicesPerGpu: 4,
        vramGiB: 3.7,
      },
      workload: {
        existing: { kind: 'Deployment', name: 'chat', container: 'chat' },
      },
      capacityTypes: ['on-demand'],
    });
    const embeddings = parseGpuRequestYaml(
      after['requests/ml/embeddings.yaml'],
    );
    expect(embeddings.spec.gpu).toMatchObject({
      model: 'a100-80gb',
      sharing: 'mig',
      replicas: 2,
      vramGiB: 9, // the catalog's 1g.10gb instance: 9216 MiB
    });
    expect(embeddings.spec.workload.existing?.kind).toBe('StatefulSet');

    // The report: what has no v1 equivalent (with its value), and the workloads' legacy selector.
    expect(change.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'clusters/legacy/karpenter/provisioners.yaml',
          object: 'Provisioner "gpu-t4"',
          field: 'spec.kubeletConfiguration.containerRuntime',
          value: 'containerd',
        }),
        expect.objectContaining({
          path: 'apps/ml/chat/deployment.yaml',
          field: 'nodeSelector.karpenter.sh/provisioner-name',
        }),
      ]),
    );
  });

  it('a second import changes nothing', async () => {
    const again = await importCluster(tree, importProfile('legacy'));
    expect(again.changeSet.changes).toEqual([]);
  });
});

describe('importing a Karpenter v0.37 setup beside a bootstrapped GPU folder', () => {
  let tree: FsRepoTree;
  let before: Record<string, string>;
  beforeAll(async () => {
    tree = await copyOf('v1beta1-repo');
    before = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('converts the v1beta1 objects, adopts both GPU pools, leaves the CPU pool byte-identical', async () => {
    const change = await importCluster(tree, importProfile('prod'));
    expect(change.changeSet.changes.map(c => c.path)).toEqual([
      'clusters/prod/gpu/nodepools/gpu-l4.yaml',
      'clusters/prod/karpenter/gpu-batch.yaml',
      'requests/ml/ranker.yaml',
    ]);
    expect(change.verification?.verified).toEqual(['clusters/prod']);
    expect(change.adoptedPools.map(p => [p.name, p.ledger])).toEqual([
      ['gpu-l4', 'ml/ranker=2'],
      ['gpu-batch', ''],
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    expect(after['clusters/prod/karpenter/default.yaml']).toBe(
      before['clusters/prod/karpenter/default.yaml'],
    );
    // The hand-written v1 pool only gains annotations.
    const [batchBefore] = docs(
      before['clusters/prod/karpenter/gpu-batch.yaml'],
    );
    const [batchAfter] = docs(after['clusters/prod/karpenter/gpu-batch.yaml']);
    const { annotations, ...metadata } = batchAfter.metadata;
    expect({ ...batchAfter, metadata }).toEqual(batchBefore);
    expect(annotations['gpu.backstage.io/gpu-model']).toBe('a10g');
    const [pool, nodeClass] = docs(
      after['clusters/prod/gpu/nodepools/gpu-l4.yaml'],
    );
    expect(schemaError(pool)).toBeUndefined();
    expect(schemaError(nodeClass)).toBeUndefined();
    expect(pool.spec.disruption.budgets).toEqual([
      { nodes: '10%' },
      { nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' },
    ]);
    expect(change.findings).toContainEqual(
      expect.objectContaining({
        object: 'NodePool "gpu-l4"',
        field: 'spec.template.spec.kubelet',
        value: { maxPods: 29 },
      }),
    );
  });

  it('a new request afterwards reuses the imported pool, counting what it holds', async () => {
    const request = parseGpuRequest({
      apiVersion: 'gpu.backstage.io/v1alpha1',
      kind: 'GpuRequest',
      metadata: { name: 'reranker', namespace: 'ml' },
      spec: {
        owner: OWNER,
        gpu: { model: 'l4', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
        workload: { image: 'ghcr.io/acme/reranker:1.0' },
        capacityTypes: ['on-demand'],
      },
    });
    const change = await buildRequestChange({
      tree,
      dir: tree.root,
      request,
      cluster: importProfile('prod'),
      catalog: builtinCatalog,
    });
    expect(change.plan.pool).toMatchObject({ name: 'gpu-l4', reused: true });
    expect(change.plan.pool.ledger).toEqual([
      { request: 'ml/ranker', replicas: 2, unitsPerReplica: 1 },
      { request: 'ml/reranker', replicas: 1, unitsPerReplica: 1 },
    ]);
  });
});

describe('importing Karpenter v0.37 objects of a kustomize base that the cluster’s overlay patches', () => {
  let tree: FsRepoTree;
  let before: Record<string, string>;
  beforeAll(async () => {
    tree = await copyOf('v1beta1-overlays-repo');
    before = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  const kindsOf = (
    objects: {
      apiVersion?: unknown;
      kind?: unknown;
      metadata: { name: string };
    }[],
  ) =>
    objects
      .map(o => `${String(o.apiVersion)} ${String(o.kind)}/${o.metadata.name}`)
      .sort();

  it('converts the patches with the objects they patch; keeps an object whose patch cannot follow, with it', async () => {
    const builtBefore = await kustomizeBuild(`${tree.root}/clusters/prod`);
    const change = await importCluster(tree, importProfile('prod'));
    expect(change.verification?.verified).toEqual(['clusters/prod']);
    expect(change.changeSet.changes.map(c => c.path)).toEqual([
      'clusters/prod/karpenter/base/cpu.yaml',
      'clusters/prod/karpenter/base/gpu.yaml',
      'clusters/prod/karpenter/kustomization.yaml',
      'clusters/prod/karpenter/limits.yaml',
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);

    // The patch that sets the CPU pool's kubelet cannot follow it into v1:
    // the pool and the patch stay, and the report says why.
    expect(after['clusters/prod/karpenter/cpu-kubelet.yaml']).toBe(
      before['clusters/prod/karpenter/cpu-kubelet.yaml'],
    );
    expect(change.findings).toContainEqual(
      expect.objectContaining({
        kind: 'not-converted',
        object: 'NodePool "cpu"',
        message: expect.stringMatching(
          /patched by clusters\/prod\/karpenter\/cpu-kubelet\.yaml, and it sets spec\.template\.spec\.kubelet, which Karpenter v1 moved to the node class/,
        ),
      }),
    );
    // The strategic-merge file and the inline JSON6902 patch are v1 now:
    // the target's version, and expireAfter where v1 moved it.
    expect(
      docs(after['clusters/prod/karpenter/limits.yaml'])[0].apiVersion,
    ).toBe('karpenter.sh/v1');
    expect(after['clusters/prod/karpenter/limits.yaml']).toMatch(
      /^# prod trains on up to 8 GPUs\.\n/,
    );
    const [overlay] = docs(after['clusters/prod/karpenter/kustomization.yaml']);
    expect(overlay.patches[1].target.version).toBe('v1');
    expect(docs(overlay.patches[1].patch)[0]).toEqual([
      { op: 'add', path: '/spec/template/spec/expireAfter', value: '336h' },
    ]);

    // What the cluster gets: the same objects, v1 but for the CPU pool, with
    // prod's patches applied as before.
    const builtAfter = await kustomizeBuild(`${tree.root}/clusters/prod`);
    expect(kindsOf(builtAfter)).toEqual([
      'karpenter.k8s.aws/v1 EC2NodeClass/default',
      'karpenter.k8s.aws/v1 EC2NodeClass/gpu',
      'karpenter.sh/v1 NodePool/gpu-serve',
      'karpenter.sh/v1 NodePool/gpu-train',
      'karpenter.sh/v1beta1 NodePool/cpu',
    ]);
    expect(builtAfter.length).toBe(builtBefore.length);
    const train = builtAfter.find(o => o.metadata.name === 'gpu-train') as any;
    expect(train.spec.limits).toEqual({ 'nvidia.com/gpu': '8' });
    expect(train.spec.template.spec.expireAfter).toBe('336h');
    expect(train.spec.disruption).toEqual({
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: '10m',
    });
    const cpu = builtAfter.find(o => o.metadata.name === 'cpu') as any;
    expect(cpu.spec.template.spec.kubelet).toEqual({ maxPods: 110 });
    for (const o of builtAfter.filter(b =>
      String(b.apiVersion).endsWith('/v1'),
    )) {
      expect(schemaError(o)).toBeUndefined();
    }

    // A pool the overlay patches is not the product's to size (kustomize
    // would apply the patch over its limits); the unpatched one is adopted.
    expect(change.adoptedPools.map(p => p.name)).toEqual(['gpu-serve']);
    expect(change.findings).toContainEqual(
      expect.objectContaining({
        kind: 'note',
        object: 'NodePool "gpu-train"',
        message: expect.stringMatching(/^not adopted as a GPU pool: /),
      }),
    );
  });

  it('a second import changes nothing', async () => {
    const again = await importCluster(tree, importProfile('prod'));
    expect(again.changeSet.changes).toEqual([]);
  });
});

describe('importing a cluster whose Karpenter objects come from a base outside its folder', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    // The overlay fixture's base moved to infra/, shared by the clusters.
    tree = await copyOf('v1beta1-overlays-repo');
    const base = 'clusters/prod/karpenter/base';
    for (const file of await tree.listFiles(base)) {
      await tree.writeFile(
        file.replace(base, 'infra/karpenter'),
        (await tree.readFile(file))!,
      );
      await tree.deleteFile(file);
    }
    const overlay = 'clusters/prod/karpenter/kustomization.yaml';
    await tree.writeFile(
      overlay,
      (await tree.readFile(overlay))!.replace(
        '  - base\n',
        '  - ../../../infra/karpenter\n',
      ),
    );
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('converts and adopts nothing there, and names the objects it leaves (not "adopted already")', async () => {
    const before = await snapshot(tree);
    const change = await importCluster(tree, importProfile('prod'));
    expect(change.changeSet.changes).toEqual([]);
    expect(change.adoptedPools).toEqual([]);
    expect(await snapshot(tree)).toEqual(before);
    const outside = change.findings.filter(f => f.object === 'infra/karpenter');
    expect(outside).toEqual([
      expect.objectContaining({
        kind: 'not-understood',
        path: 'clusters/prod/karpenter/kustomization.yaml',
      }),
    ]);
    expect(outside[0].message).toContain(
      'NodePool "gpu-train" (karpenter.sh/v1beta1), NodePool "gpu-serve" (karpenter.sh/v1beta1), EC2NodeClass "gpu" (karpenter.k8s.aws/v1beta1)',
    );
    // The overlay's patch files are patches of those objects, not objects
    // of the cluster with a missing node class.
    expect(
      change.findings.filter(
        f => f.path === 'clusters/prod/karpenter/limits.yaml',
      ),
    ).toEqual([]);
    expect(renderImportReport({ change }).text).not.toMatch(/adopted already/);
  });
});

describe('verifying an import: what kustomize builds after is the conversion of what it built before', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    // A replacement that selects the v1beta1 version sets gpu-serve's
    // weight; converted, the pool is no longer selected.
    tree = await copyOf('v1beta1-overlays-repo');
    const overlay = 'clusters/prod/karpenter/kustomization.yaml';
    await tree.writeFile(
      'clusters/prod/karpenter/sizes.yaml',
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sizes}\ndata: {serve: '7'}\n",
    );
    await tree.writeFile(
      overlay,
      `${(await tree.readFile(overlay))!.replace(
        '  - base\n',
        '  - base\n  - sizes.yaml\n',
      )}replacements:
  - source: {kind: ConfigMap, name: sizes, fieldPath: data.serve}
    targets:
      - select: {group: karpenter.sh, version: v1beta1, kind: NodePool, name: gpu-serve}
        fieldPaths: [spec.weight]
        options: {create: true}
`,
    );
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('refuses, naming the object and the field, when a replacement no longer reaches a converted object; writes nothing', async () => {
    const before = await snapshot(tree);
    const refusal = await importCluster(tree, importProfile('prod')).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refusal?.message).toMatch(
      /NodePool "gpu-serve" would not be the v1 conversion of what kustomize built before \(spec\.weight differs/,
    );
    expect(await snapshot(tree)).toEqual(before);
  });
});
