/**
 * Importing an AKS cluster whose Karpenter objects are Azure provider v0.6
 * (`karpenter.sh/v1beta1` NodePools, `karpenter.azure.com/v1alpha2`
 * AKSNodeClasses): the provider's own example beside hand-written GPU pools
 * in Azure's labels only (`__fixtures__/v1beta1-aks-repo/README.md`).
 */
import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  parseGpuRequestYaml,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { buildImportChange } from './buildImportChange';
import { copyOf, snapshot } from './__testUtils__/fixtureCopies';
import {
  IMPORT_OWNER as OWNER,
  importCluster,
  yamlDocs as docs,
} from './__testUtils__/importCluster';
import {
  AZURE_V0_6_3_CRDS,
  azureV1SchemaErrors,
  legacySchemaErrors,
} from './__testUtils__/legacyCrdSchemas';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const aks = resolveClusterProfile({ name: 'aks', provider: 'azure-karpenter' });

const KARPENTER_FILES = [
  'clusters/aks/karpenter/general-purpose.yaml',
  'clusters/aks/karpenter/gpu.yaml',
];

describe('importing an AKS cluster’s Karpenter v1beta1 objects (Azure provider v0.6)', () => {
  let tree: FsRepoTree;
  let before: Record<string, string>;
  beforeAll(async () => {
    tree = await copyOf('v1beta1-aks-repo');
    before = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('the fixture is what Azure’s provider v0.6.3 accepted', () => {
    const objects = KARPENTER_FILES.flatMap(f => docs(before[f]));
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'NodePool/general-purpose',
      'AKSNodeClass/default',
      'NodePool/gpu-nc',
      'NodePool/gpu-t4',
      'AKSNodeClass/gpu',
    ]);
    for (const o of objects) {
      const crd = AZURE_V0_6_3_CRDS[o.kind as keyof typeof AZURE_V0_6_3_CRDS];
      expect(legacySchemaErrors(o, crd)).toEqual([]);
    }
  });

  it('every NodePool keeps its AKSNodeClass; the NC-family pools are adopted as GPU pools', async () => {
    const change = await importCluster(tree, aks);
    expect(change.verification?.verified).toEqual(['clusters/aks']);
    expect(change.converted.map(c => c.to)).toEqual([
      'karpenter.sh/v1 NodePool "general-purpose"',
      'karpenter.sh/v1 NodePool "gpu-nc"',
      'karpenter.sh/v1 NodePool "gpu-t4"',
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    const objects = KARPENTER_FILES.flatMap(f => docs(after[f]));
    const pools = objects.filter(o => o.kind === 'NodePool');
    // The reference's own apiVersion/kind (gpu-nc), else the class of that
    // name the folder defines (general-purpose, gpu-t4): Azure's, never AWS's.
    expect(
      pools.map(p => [p.metadata.name, p.spec.template.spec.nodeClassRef]),
    ).toEqual([
      [
        'general-purpose',
        { group: 'karpenter.azure.com', kind: 'AKSNodeClass', name: 'default' },
      ],
      [
        'gpu-nc',
        { group: 'karpenter.azure.com', kind: 'AKSNodeClass', name: 'gpu' },
      ],
      [
        'gpu-t4',
        { group: 'karpenter.azure.com', kind: 'AKSNodeClass', name: 'gpu' },
      ],
    ]);
    for (const file of KARPENTER_FILES) {
      expect(after[file]).not.toContain('karpenter.k8s.aws');
    }
    // Every object is valid for Azure's provider v1.14 (which still serves
    // the v1alpha2 AKSNodeClass, deprecated, beside v1beta1).
    for (const o of objects) expect(azureV1SchemaErrors(o)).toEqual([]);
    // The node classes are left as they were, byte for byte.
    const classes = (text: string) =>
      text.slice(text.lastIndexOf('---\napiVersion: karpenter.azure.com'));
    for (const file of KARPENTER_FILES) {
      expect(classes(after[file])).toBe(classes(before[file]));
    }

    expect(
      change.adoptedPools.map(p => [
        p.name,
        p.gpuModel,
        p.sharingMode,
        p.ledger,
      ]),
    ).toEqual([
      ['gpu-nc', 't4', 'exclusive', 'ml/transcribe=2'],
      ['gpu-t4', 't4', 'exclusive', ''],
    ]);
    // The CPU pool is converted, not adopted.
    expect(pools[0].metadata.annotations).toEqual({
      'kubernetes.io/description':
        'General purpose NodePool for generic workloads',
    });
    // The deprecated v1alpha2 classes stay, and the report says so.
    expect(
      change.findings
        .filter(f => /deprecated/.test(f.message))
        .map(f => [f.kind, f.object]),
    ).toEqual([
      ['note', 'AKSNodeClass "default"'],
      ['note', 'AKSNodeClass "gpu"'],
    ]);
    const record = parseGpuRequestYaml(after['requests/ml/transcribe.yaml']);
    expect(record.spec).toMatchObject({
      cluster: 'aks',
      gpu: {
        model: 't4',
        sharing: 'exclusive',
        replicas: 2,
        gpusPerReplica: 1,
      },
      workload: { existing: { kind: 'Deployment', name: 'transcribe' } },
    });
  });

  it('a second import changes nothing', async () => {
    const again = await importCluster(tree, aks);
    expect(again.changeSet.changes).toEqual([]);
  });
});

describe('a bare node class reference with no class of that name in the folder', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    tree = await copyOf('v1beta1-aks-repo');
    // The team keeps its node classes elsewhere (applied by hand).
    const file = 'clusters/aks/karpenter/general-purpose.yaml';
    const text = (await tree.readFile(file))!;
    await tree.writeFile(
      file,
      text.slice(0, text.indexOf('---\napiVersion: karpenter.azure.com')),
    );
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('takes the cluster profile’s provider’s class (AKSNodeClass on AKS)', async () => {
    const change = await buildImportChange({
      tree,
      dir: tree.root,
      cluster: aks,
      catalog: builtinCatalog,
      owner: OWNER,
      verify: false,
    });
    const file = change.changeSet.changes.find(
      c => c.path === 'clusters/aks/karpenter/general-purpose.yaml',
    );
    const [pool] = docs((file as { content: string }).content);
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.azure.com',
      kind: 'AKSNodeClass',
      name: 'default',
    });
  });

  it('is not converted on a cluster whose profile has no Karpenter provider, and the report says why', async () => {
    const change = await buildImportChange({
      tree,
      dir: tree.root,
      cluster: resolveClusterProfile({ name: 'aks', provider: 'static' }),
      catalog: builtinCatalog,
      owner: OWNER,
      verify: false,
    });
    expect(change.changeSet.changes.map(c => c.path)).not.toContain(
      'clusters/aks/karpenter/general-purpose.yaml',
    );
    expect(change.findings).toContainEqual(
      expect.objectContaining({
        kind: 'not-converted',
        object: 'NodePool "general-purpose"',
        message: expect.stringMatching(/says neither its group nor its kind/),
      }),
    );
  });
});
