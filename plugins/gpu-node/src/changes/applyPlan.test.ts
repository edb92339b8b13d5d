import { writes } from './__testUtils__/writes';
import { parse, parseAllDocuments } from 'yaml';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree, MemoryRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { schemaError } from '../validate/schemas';
import { buildWorkloadPatch } from '@gpu-gitops/plugin-gpu-common';
import { prepareExistingWorkload } from '../workloads/prepareExistingWorkload';
import { applyPlan } from './applyPlan';
import { renderChangeSetDiff } from './diff';
import { writeChangeSet } from './stagedTree';
import type { ChangeSet } from './types';
import {
  bootstrappedFiles,
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';
import {
  devCluster,
  Fixture,
  migFixture,
  patchFixture,
  timeSlicingFixture,
} from './__fixtures__/plans';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

async function tempTree(files: Record<string, string> = bootstrappedFiles) {
  const dir = await writeTempRepo(files);
  dirs.push(dir);
  return new FsRepoTree(dir);
}

function apply(tree: FsRepoTree | MemoryRepoTree, fixture: Fixture) {
  return applyPlan(tree, { ...fixture, cluster: devCluster });
}

function content(changeSet: ChangeSet, path: string): string {
  const change = writes(changeSet).find(c => c.path === path);
  if (!change)
    throw new Error(
      `no change for ${path}: ${changeSet.changes.map(c => c.path)}`,
    );
  return change.content;
}

/** The first document of a multi-document file (a NodePool file holds its overlays too). */
function firstDoc(text: string): any {
  return parseAllDocuments(text)[0].toJS();
}

function expectAllObjectsValid(changeSet: ChangeSet) {
  for (const change of writes(changeSet)) {
    for (const doc of parseAllDocuments(change.content) as any[]) {
      const value = doc.toJS();
      if (value?.kind)
        expect([change.path, schemaError(value)]).toEqual([
          change.path,
          undefined,
        ]);
    }
  }
}

async function expectConflict(promise: Promise<unknown>, pathPart: string) {
  const error = await promise.then(
    () => undefined,
    e => e,
  );
  expect(isGpuInputError(error)).toBe(true);
  expect(error.issues[0].rule).toBe('conflict');
  expect(error.issues[0].path).toContain(pathPart);
  return error;
}

describe('applyPlan on a freshly bootstrapped tree', () => {
  it('creates the pool, device-plugin config, workload, kustomizations and request', async () => {
    const tree = await tempTree();
    const changeSet = await apply(tree, timeSlicingFixture());

    expect(changeSet.empty).toBe(false);
    expect(changeSet.changes.map(c => [c.action, c.path])).toEqual([
      ['create', 'apps/ml/summarizer/deployment.yaml'],
      ['create', 'apps/ml/summarizer/kustomization.yaml'],
      ['create', 'clusters/dev/gpu/device-plugin/ts-4.yaml'],
      ['update', 'clusters/dev/gpu/kustomization.yaml'],
      ['create', 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'],
      ['create', 'requests/ml/summarizer.yaml'],
    ]);
    for (const change of writes(changeSet))
      expect(change.content.endsWith('\n')).toBe(true);

    expect(
      parse(content(changeSet, 'clusters/dev/gpu/kustomization.yaml')),
    ).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['nodepools/gpu-t4-ts4.yaml'],
      configMapGenerator: [
        {
          name: 'device-plugin-config',
          namespace: 'gpu-operator',
          files: ['ts-4=device-plugin/ts-4.yaml'],
          options: { disableNameSuffixHash: true },
        },
      ],
    });
    expect(
      parse(content(changeSet, 'clusters/dev/gpu/device-plugin/ts-4.yaml')),
    ).toEqual(timeSlicingFixture().manifests.devicePluginConfig!.config);
    const poolDocs = parseAllDocuments(
      content(changeSet, 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'),
    ).map(d => d.toJS());
    expect(poolDocs.map(d => d.kind)).toEqual(['NodePool', 'NodeOverlay']);
    expect(
      parse(content(changeSet, 'apps/ml/summarizer/kustomization.yaml'))
        .resources,
    ).toEqual(['deployment.yaml']);
    // The stored request names its cluster, so it can be re-rendered.
    const request = timeSlicingFixture().plan.request;
    expect(parse(content(changeSet, 'requests/ml/summarizer.yaml'))).toEqual({
      ...request,
      spec: { ...request.spec, cluster: 'dev' },
    });
    expectAllObjectsValid(changeSet);

    // Nothing is written by applyPlan itself.
    expect(await tree.listFiles()).toEqual([
      'clusters/dev/gpu/kustomization.yaml',
    ]);
  });

  it('creates the mig-parted config with all-disabled and lists it under key config.yaml', async () => {
    const tree = new MemoryRepoTree(bootstrappedFiles);
    const changeSet = await apply(tree, migFixture());
    const mig = parse(content(changeSet, 'clusters/dev/gpu/mig/config.yaml'));
    expect(mig).toEqual({
      version: 'v1',
      'mig-configs': {
        'all-1g.5gb': [
          {
            devices: 'all',
            'mig-enabled': true,
            'mig-devices': { '1g.5gb': 7 },
          },
        ],
        'all-disabled': [{ devices: 'all', 'mig-enabled': false }],
      },
    });
    const kustomization = parse(
      content(changeSet, 'clusters/dev/gpu/kustomization.yaml'),
    );
    expect(kustomization.configMapGenerator).toEqual([
      {
        name: 'mig-parted-config',
        namespace: 'gpu-operator',
        files: ['config.yaml=mig/config.yaml'],
        options: { disableNameSuffixHash: true },
      },
    ]);
    expect(changeSet.changes.some(c => c.path.includes('device-plugin'))).toBe(
      false,
    );
  });

  it('is idempotent: applying the same plan again yields an empty change set', async () => {
    for (const fixture of [timeSlicingFixture(), migFixture()]) {
      const tree = await tempTree();
      await writeChangeSet(tree, await apply(tree, fixture));
      const again = await apply(tree, fixture);
      expect(again).toEqual({ changes: [], empty: true });
    }
  });

  it('writes identical text for the same entry on independent branches', async () => {
    const a = await apply(new MemoryRepoTree(existingRepoFiles), migFixture());
    const b = await apply(new MemoryRepoTree(existingRepoFiles), migFixture());
    expect(a).toEqual(b);
  });
});

describe('applyPlan on an existing GitOps repository', () => {
  it('reuses the pool by raising its limit in place; comments and unrelated content survive', async () => {
    const tree = await tempTree(existingRepoFiles);
    const changeSet = await apply(
      tree,
      timeSlicingFixture({ reused: true, limit: 16 }),
    );

    expect(changeSet.changes.map(c => [c.action, c.path])).toEqual([
      ['update', 'apps/ml/kustomization.yaml'],
      ['create', 'apps/ml/summarizer/deployment.yaml'],
      ['create', 'apps/ml/summarizer/kustomization.yaml'],
      ['update', 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'],
      ['create', 'requests/ml/summarizer.yaml'],
    ]);
    const pool = writes(changeSet).find(c =>
      c.path.endsWith('gpu-t4-ts4.yaml'),
    )!;
    expect(pool.previous).toBe(
      existingRepoFiles['clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'],
    );
    // Two lines change: the ledger gains the request, the limit derived
    // from it follows, with its comment kept.
    const before = pool.previous!.split('\n');
    const after = pool.content.split('\n');
    expect(after.filter(line => !before.includes(line))).toEqual([
      '    gpu.backstage.io/requests: ml/summarizer=2',
      '    nvidia.com/gpu.shared: "16" # raised by GPU requests',
    ]);
    expect(before.filter(line => !after.includes(line))).toEqual([
      '    nvidia.com/gpu.shared: "8" # raised by GPU requests',
    ]);

    const apps = content(changeSet, 'apps/ml/kustomization.yaml');
    expect(apps).toContain('# ML namespace apps');
    expect(parse(apps).resources).toEqual([
      'chat-assistant',
      'recommender-api',
      'summarizer',
    ]);
    expectAllObjectsValid(changeSet);

    const diff = renderChangeSetDiff(changeSet);
    expect(diff).toContain('--- a/clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml');
    expect(diff).toContain(
      '-    nvidia.com/gpu.shared: "8" # raised by GPU requests',
    );
    expect(diff).toContain(
      '+    nvidia.com/gpu.shared: "16" # raised by GPU requests',
    );
    expect(diff).toContain('--- /dev/null\n+++ b/requests/ml/summarizer.yaml');
  });

  it('moves a reused pool to a new config key when the planned label changes', async () => {
    const fixture = timeSlicingFixture({ reused: true });
    fixture.manifests.devicePluginConfig!.name = 'ts-4-v2';
    fixture.manifests.devicePluginConfig!.config.sharing!.timeSlicing!.failRequestsGreaterThanOne = false;
    const labels = (fixture.manifests.pool.objects[0].spec as any).template
      .metadata.labels;
    labels['nvidia.com/device-plugin.config'] = 'ts-4-v2';
    const changeSet = await apply(
      new MemoryRepoTree(existingRepoFiles),
      fixture,
    );
    const pool = writes(changeSet).find(c =>
      c.path.endsWith('nodepools/gpu-t4-ts4.yaml'),
    )!;
    const previous = pool.previous!.split('\n');
    const changedLines = pool.content
      .split('\n')
      .filter(line => !previous.includes(line));
    expect(changedLines).toEqual([
      '    gpu.backstage.io/requests: ml/summarizer=2',
      '        nvidia.com/device-plugin.config: ts-4-v2',
    ]);
    expect(
      parse(content(changeSet, 'clusters/dev/gpu/kustomization.yaml'))
        .configMapGenerator[0].files,
    ).toEqual([
      'ts-4-v2=device-plugin/ts-4-v2.yaml',
      'ts-4=device-plugin/ts-4.yaml',
    ]);
  });

  it('updates a reused pool in its own file elsewhere in the cluster folder: never moved, copied or listed twice', async () => {
    // The pool the import adopted where it lives, deployed by the cluster's kustomization.
    const elsewhere = 'clusters/dev/karpenter/gpu-t4-ts4.yaml';
    const {
      ['clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml']: poolFile,
      ...others
    } = existingRepoFiles;
    const files = {
      ...others,
      [elsewhere]: poolFile,
      'clusters/dev/kustomization.yaml': others[
        'clusters/dev/kustomization.yaml'
      ].replace(
        '  - karpenter/default-nodepool.yaml',
        `  - karpenter/default-nodepool.yaml\n  - karpenter/gpu-t4-ts4.yaml`,
      ),
      'clusters/dev/gpu/kustomization.yaml': others[
        'clusters/dev/gpu/kustomization.yaml'
      ].replace(
        'resources:\n  - nodepools/gpu-t4-ts4.yaml # the shared inference pool\n',
        'resources: []\n',
      ),
    };
    const tree = await tempTree(files);
    const fixture = timeSlicingFixture({ reused: true, limit: 16 });
    fixture.plan.pool.path = elsewhere;
    const changeSet = await apply(tree, fixture);
    expect(changeSet.changes.map(c => [c.action, c.path])).toEqual([
      ['update', 'apps/ml/kustomization.yaml'],
      ['create', 'apps/ml/summarizer/deployment.yaml'],
      ['create', 'apps/ml/summarizer/kustomization.yaml'],
      ['update', elsewhere],
      ['create', 'requests/ml/summarizer.yaml'],
    ]);
    expect(firstDoc(content(changeSet, elsewhere)).spec.limits).toEqual({
      'nvidia.com/gpu.shared': '16',
    });
    await writeChangeSet(tree, changeSet);
    const state = await readRepoState(tree, undefined, 'dev');
    expect(state.pools.map(p => [p.name, p.path, p.limit])).toEqual([
      ['gpu-t4-ts4', elsewhere, 16],
    ]);
  });

  it('lists a new pool in a nested nodepools kustomization when there is one', async () => {
    const files = {
      ...existingRepoFiles,
      'clusters/dev/gpu/kustomization.yaml': existingRepoFiles[
        'clusters/dev/gpu/kustomization.yaml'
      ].replace(
        '  - nodepools/gpu-t4-ts4.yaml # the shared inference pool',
        '  - nodepools',
      ),
      'clusters/dev/gpu/nodepools/kustomization.yaml':
        'resources:\n  - gpu-t4-ts4.yaml\n',
    };
    const changeSet = await apply(
      new MemoryRepoTree(files),
      timeSlicingFixture({ slices: 2 }),
    );
    expect(
      parse(content(changeSet, 'clusters/dev/gpu/nodepools/kustomization.yaml'))
        .resources,
    ).toEqual(['gpu-t4-ts2.yaml', 'gpu-t4-ts4.yaml']);
    expect(
      parse(content(changeSet, 'clusters/dev/gpu/kustomization.yaml'))
        .resources,
    ).toEqual(['nodepools']);
  });

  it('refuses a cluster without GPU setup and writes nothing', async () => {
    const prod = { ...devCluster, name: 'prod' };
    const fixture = timeSlicingFixture();
    fixture.plan.cluster = 'prod';
    const files = {
      'clusters/prod/kustomization.yaml':
        '# prod\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
    };
    const error = await applyPlan(new MemoryRepoTree(files), {
      ...fixture,
      cluster: prod,
    }).catch(e => e);
    expect(isGpuInputError(error) && error.issues[0]).toMatchObject({
      path: 'spec.cluster',
      rule: 'cluster-not-bootstrapped',
    });
    expect(error.message).toContain('gpu-cluster-bootstrap');
    expect(error.message).toContain('clusters/prod/gpu/kustomization.yaml');
  });

  it('writes a generated EC2NodeClass once: not when the cluster folder already has it', async () => {
    const nodeClass = {
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'gpu' },
      spec: {
        role: 'KarpenterNodeRole-dev',
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'dev' } }],
        securityGroupSelectorTerms: [
          { tags: { 'karpenter.sh/discovery': 'dev' } },
        ],
      },
    };
    const withClass = (fixture: Fixture) => {
      fixture.manifests.pool.objects.push(
        JSON.parse(JSON.stringify(nodeClass)),
      );
      return fixture;
    };
    const fresh = await apply(
      new MemoryRepoTree(bootstrappedFiles),
      withClass(timeSlicingFixture()),
    );
    const kinds = parseAllDocuments(
      content(fresh, 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'),
    ).map(d => d.toJS().kind);
    expect(kinds).toEqual(['NodePool', 'NodeOverlay', 'EC2NodeClass']);
    expectAllObjectsValid(fresh);

    const bootstrapped = new MemoryRepoTree({
      ...existingRepoFiles,
      'clusters/dev/gpu/nodeclasses/gpu.yaml': `# from the bootstrap\napiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\n`,
    });
    const changeSet = await apply(
      bootstrapped,
      withClass(timeSlicingFixture({ slices: 2 })),
    );
    const poolKinds = parseAllDocuments(
      content(changeSet, 'clusters/dev/gpu/nodepools/gpu-t4-ts2.yaml'),
    ).map(d => d.toJS().kind);
    expect(poolKinds).toEqual(['NodePool', 'NodeOverlay']);
  });

  it('refuses a plan for another cluster than the profile', async () => {
    const error = await apply(new MemoryRepoTree(), {
      ...timeSlicingFixture(),
      plan: { ...timeSlicingFixture().plan, cluster: 'prod' },
    }).catch(e => e);
    expect(isGpuInputError(error) && error.issues[0].rule).toBe(
      'cluster-mismatch',
    );
  });

  it('leaves a hand-written limit it cannot compare alone', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const files = {
      ...existingRepoFiles,
      [path]: existingRepoFiles[path].replace(
        'nvidia.com/gpu.shared: "8"',
        'nvidia.com/gpu.shared: 1k',
      ),
    };
    const changeSet = await apply(
      new MemoryRepoTree(files),
      timeSlicingFixture({ reused: true, limit: 16 }),
    );
    expect(firstDoc(content(changeSet, path)).spec.limits).toEqual({
      'nvidia.com/gpu.shared': '1k',
    });
  });

  it('writes the limits the plan derived from the ledger, lower ones too', async () => {
    const tree = new MemoryRepoTree(existingRepoFiles);
    const changeSet = await apply(
      tree,
      timeSlicingFixture({ reused: true, limit: 4 }),
    );
    const pool = firstDoc(
      content(changeSet, 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'),
    );
    expect(pool.spec.limits).toEqual({ 'nvidia.com/gpu.shared': '4' });
    expect(pool.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/summarizer=2',
    );
  });

  it('shrinks the ledger and limits of a pool the request leaves', async () => {
    const fixture = timeSlicingFixture({ slices: 2 });
    fixture.plan.leftPools = [
      {
        name: 'gpu-t4-ts4',
        path: 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
        ledger: [{ request: 'ml/other', replicas: 4, unitsPerReplica: 1 }],
        limits: { 'nvidia.com/gpu.shared': 4 },
        nodesAfter: 1,
      },
    ];
    const changeSet = await apply(
      new MemoryRepoTree(existingRepoFiles),
      fixture,
    );
    const left = firstDoc(
      content(changeSet, 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'),
    );
    expect(left.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/other=4',
    );
    expect(left.spec.limits).toEqual({ 'nvidia.com/gpu.shared': '4' });
  });

  it('adds a new pool and device-plugin config next to existing ones, lists kept sorted', async () => {
    const tree = new MemoryRepoTree(existingRepoFiles);
    const changeSet = await apply(tree, timeSlicingFixture({ slices: 2 }));
    const text = content(changeSet, 'clusters/dev/gpu/kustomization.yaml');
    expect(text).toContain('# GPU capacity of the dev cluster');
    expect(text).toContain(
      '  - nodepools/gpu-t4-ts4.yaml # the shared inference pool',
    );
    expect(text).toContain('  # mig-parted configs; key must be config.yaml.');
    const parsed = parse(text);
    expect(parsed.resources).toEqual([
      'nodepools/gpu-t4-ts2.yaml',
      'nodepools/gpu-t4-ts4.yaml',
    ]);
    expect(parsed.configMapGenerator[0]).toEqual({
      name: 'device-plugin-config',
      namespace: 'gpu-operator',
      files: ['ts-2=device-plugin/ts-2.yaml', 'ts-4=device-plugin/ts-4.yaml'],
    });
    // generatorOptions already disables the hash suffix: no per-entry option added.
    expect(parsed.generatorOptions).toEqual({ disableNameSuffixHash: true });
  });

  it('adds a mig-parted entry keeping mig-configs sorted and comments intact', async () => {
    const tree = await tempTree(existingRepoFiles);
    const changeSet = await apply(tree, migFixture());
    const text = content(changeSet, 'clusters/dev/gpu/mig/config.yaml');
    expect(text).toContain('# keep: referenced by the GPU Operator default');
    expect(text).toContain(
      '# mig-parted config; all-disabled is the ClusterPolicy default',
    );
    expect(Object.keys(parse(text)['mig-configs'])).toEqual([
      'all-1g.5gb',
      'all-balanced',
      'all-disabled',
    ]);
    // The generator already lists config.yaml: the kustomization only gains the pool.
    const kustomization = parse(
      content(changeSet, 'clusters/dev/gpu/kustomization.yaml'),
    );
    expect(kustomization.resources).toEqual([
      'nodepools/gpu-a100-40gb-mig-1g.5gb.yaml',
      'nodepools/gpu-t4-ts4.yaml',
    ]);
    expect(kustomization.configMapGenerator[1].files).toEqual([
      'config.yaml=mig/config.yaml',
    ]);

    await writeChangeSet(tree, changeSet);
    const second = await apply(
      tree,
      migFixture({ name: 'trainer-b', profile: '3g.20gb', count: 2 }),
    );
    const keys = Object.keys(
      parse(content(second, 'clusters/dev/gpu/mig/config.yaml'))['mig-configs'],
    );
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('all-3g.20gb');
  });

  it('patches an existing workload through its kustomization: its own container, nothing else', async () => {
    const tree = await tempTree(existingRepoFiles);
    const fixture = patchFixture();
    const applyPatch = async () => {
      const prepared = await prepareExistingWorkload({
        dir: tree.root,
        tree,
        request: fixture.plan.request,
        cluster: devCluster,
      });
      expect(prepared.target.container).toBe('api');
      expect(prepared.current.replicas).toBe(3);
      fixture.manifests.workload.objects = [
        buildWorkloadPatch(fixture.plan, devCluster, prepared.target),
      ];
      return applyPlan(tree, {
        ...fixture,
        cluster: devCluster,
        existing: prepared.change,
      });
    };
    const changeSet = await applyPatch();
    expect(changeSet.changes.map(c => [c.action, c.path])).toEqual([
      ['create', 'apps/ml/recommender-api/gpu-patch-recommender-api.yaml'],
      ['update', 'apps/ml/recommender-api/kustomization.yaml'],
      ['update', 'clusters/dev/gpu/kustomization.yaml'],
      ['create', 'clusters/dev/gpu/nodepools/gpu-t4-exclusive.yaml'],
      ['create', 'requests/ml/recommender-api.yaml'],
    ]);
    expect(
      parse(content(changeSet, 'apps/ml/recommender-api/kustomization.yaml')),
    ).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      namespace: 'ml',
      resources: ['deployment.yaml'],
      patches: [{ path: 'gpu-patch-recommender-api.yaml' }],
    });
    const patch = parse(
      content(
        changeSet,
        'apps/ml/recommender-api/gpu-patch-recommender-api.yaml',
      ),
    );
    expect(patch.spec.replicas).toBeUndefined();
    expect(patch.spec.template.spec.containers).toEqual([
      { name: 'api', resources: { limits: { 'nvidia.com/gpu': '1' } } },
    ]);
    await writeChangeSet(tree, changeSet);
    expect(await applyPatch()).toEqual({ changes: [], empty: true });
  });

  it('updates exactly what changed when the request changes', async () => {
    const tree = await tempTree(existingRepoFiles);
    await writeChangeSet(
      tree,
      await apply(tree, timeSlicingFixture({ reused: true, limit: 16 })),
    );
    // Someone documents the workload by hand; the update keeps that.
    const deploymentPath = 'apps/ml/summarizer/deployment.yaml';
    const handEdited = `# owned by the summarizer team\n${(await tree.readFile(deploymentPath))!}`;
    await tree.writeFile(deploymentPath, handEdited);

    const changed = await apply(
      tree,
      timeSlicingFixture({
        reused: true,
        limit: 16,
        replicas: 3,
        image: 'ghcr.io/example/summarizer:1.1.0',
      }),
    );
    // The pool's ledger follows the new replica count.
    expect(changed.changes.map(c => c.path)).toEqual([
      deploymentPath,
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
      'requests/ml/summarizer.yaml',
    ]);
    const deployment = content(changed, deploymentPath);
    expect(deployment.startsWith('# owned by the summarizer team\n')).toBe(
      true,
    );
    expect(parse(deployment).spec.replicas).toBe(3);
    expect(parse(deployment).spec.template.spec.containers[0].image).toBe(
      'ghcr.io/example/summarizer:1.1.0',
    );
    expect(
      parse(content(changed, 'requests/ml/summarizer.yaml')).spec.gpu.replicas,
    ).toBe(3);
  });

  it('refuses to overwrite a device-plugin config that holds other content', async () => {
    const fixture = timeSlicingFixture({ reused: true });
    fixture.manifests.devicePluginConfig!.config.sharing!.timeSlicing!.renameByDefault = false;
    const tree = new MemoryRepoTree(existingRepoFiles);
    const error = await expectConflict(
      apply(tree, fixture),
      'clusters/dev/gpu/device-plugin/ts-4.yaml',
    );
    expect(error.message).toContain('device-plugin config "ts-4"');
  });

  it('refuses to overwrite a mig-parted entry that holds other content', async () => {
    const fixture = migFixture({ profile: '1g.5gb' });
    fixture.manifests.migConfig!.name = 'all-balanced';
    const error = await expectConflict(
      apply(new MemoryRepoTree(existingRepoFiles), fixture),
      'mig-configs.all-balanced',
    );
    expect(error.message).toContain('mig-parted config "all-balanced"');
  });

  it('refuses to overwrite a workload file holding another workload', async () => {
    const files = {
      ...existingRepoFiles,
      'apps/ml/summarizer/deployment.yaml':
        existingRepoFiles['apps/ml/recommender-api/deployment.yaml'],
    };
    const error = await expectConflict(
      apply(new MemoryRepoTree(files), timeSlicingFixture({ reused: true })),
      'apps/ml/summarizer/deployment.yaml',
    );
    expect(error.message).toContain('Deployment "recommender-api"');
    expect(error.message).toContain('never overwritten');
  });

  it('refuses to replace an existing pool of the same name that was not planned for reuse', async () => {
    const fixture = timeSlicingFixture({ reused: false });
    (fixture.manifests.pool.objects[0].spec as any).template.spec.expireAfter =
      '24h';
    const error = await expectConflict(
      apply(new MemoryRepoTree(existingRepoFiles), fixture),
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
    );
    expect(error.message).toContain('not planned for reuse');
  });

  it('refuses to edit a file it cannot parse, naming it', async () => {
    const files = {
      ...existingRepoFiles,
      'clusters/dev/gpu/kustomization.yaml': 'resources: [unclosed\n',
    };
    const error = await apply(
      new MemoryRepoTree(files),
      timeSlicingFixture(),
    ).catch(e => e);
    expect(isGpuInputError(error) && error.issues[0]).toMatchObject({
      path: 'clusters/dev/gpu/kustomization.yaml',
      rule: 'yaml-syntax',
    });
  });

  it('works on empty and comment-only kustomizations', async () => {
    const files = {
      'clusters/dev/gpu/kustomization.yaml': '# managed by GPU self-service\n',
      'apps/ml/kustomization.yaml': '',
    };
    const changeSet = await apply(
      new MemoryRepoTree(files),
      timeSlicingFixture(),
    );
    const gpu = content(changeSet, 'clusters/dev/gpu/kustomization.yaml');
    expect(gpu.startsWith('# managed by GPU self-service\n')).toBe(true);
    expect(parse(gpu).resources).toEqual(['nodepools/gpu-t4-ts4.yaml']);
    expect(parse(content(changeSet, 'apps/ml/kustomization.yaml'))).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['summarizer'],
    });
  });
});

describe('applyPlan with a custom repository layout', () => {
  const layout = {
    clusterKustomization: 'k8s/{{cluster}}/gpu-capacity/kustomization.yaml',
    nodePool: 'k8s/{{cluster}}/gpu-capacity/pools/{{pool}}.yaml',
    devicePluginConfig: 'k8s/{{cluster}}/gpu-capacity/sharing/{{config}}.yaml',
    migConfig: 'k8s/{{cluster}}/gpu-capacity/mig.yaml',
    workloadDir: 'workloads/{{component}}/{{namespace}}',
    request: 'audit/{{namespace}}/{{name}}.yaml',
  };

  it('writes every file where the layout says, reads it back and validates clean', async () => {
    const tree = await tempTree({
      'README.md': '# repo\n',
      'k8s/dev/gpu-capacity/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
    });
    for (const fixture of [timeSlicingFixture(), migFixture()]) {
      const changeSet = await applyPlan(tree, {
        ...fixture,
        layout,
        cluster: devCluster,
      });
      await writeChangeSet(tree, changeSet);
    }
    expect(await tree.listFiles()).toEqual([
      'README.md',
      'audit/ml/summarizer.yaml',
      'audit/ml/trainer.yaml',
      'k8s/dev/gpu-capacity/kustomization.yaml',
      'k8s/dev/gpu-capacity/mig.yaml',
      'k8s/dev/gpu-capacity/pools/gpu-a100-40gb-mig-1g.5gb.yaml',
      'k8s/dev/gpu-capacity/pools/gpu-t4-ts4.yaml',
      'k8s/dev/gpu-capacity/sharing/ts-4.yaml',
      'workloads/summarizer/ml/deployment.yaml',
      'workloads/summarizer/ml/kustomization.yaml',
      'workloads/trainer/ml/deployment.yaml',
      'workloads/trainer/ml/kustomization.yaml',
    ]);
    const kustomization = parse(
      (await tree.readFile('k8s/dev/gpu-capacity/kustomization.yaml'))!,
    );
    expect(kustomization.configMapGenerator.map((g: any) => g.files)).toEqual([
      ['ts-4=sharing/ts-4.yaml'],
      ['config.yaml=mig.yaml'],
    ]);

    const state = await readRepoState(tree, layout, 'dev');
    expect(state.pools.map(p => p.name)).toEqual([
      'gpu-a100-40gb-mig-1g.5gb',
      'gpu-t4-ts4',
    ]);
    expect(Object.keys(state.devicePluginConfigs)).toEqual(['ts-4']);
    expect(state.workloads.map(w => [w.id, w.path])).toEqual([
      ['ml/summarizer', 'workloads/summarizer/ml/deployment.yaml'],
      ['ml/trainer', 'workloads/trainer/ml/deployment.yaml'],
    ]);
    expect(await validateGitOpsTree(tree.root, { layout })).toEqual([]);
    for (const fixture of [timeSlicingFixture(), migFixture()]) {
      expect(
        (await applyPlan(tree, { ...fixture, layout, cluster: devCluster }))
          .empty,
      ).toBe(true);
    }
  });
});
