/**
 * The life of requests on a realistic GitOps tree on disk, through the real
 * planner, merge engine and kustomize: requests are created, then released,
 * and the tree must come back to what it was, byte for byte, wherever the
 * product made the change.
 */
import {
  builtinCatalog,
  isGpuInputError,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { parse, parseAllDocuments, parseDocument } from 'yaml';
import { join } from 'node:path';
import { kustomizeBuild } from '../../kustomize/build';
import { renderPullRequest } from '../../pr/renderPullRequest';
import { renderReleasePullRequest } from '../../pr/renderReleasePullRequest';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from './buildReleaseChange';
import { writeChangeSet } from '../stagedTree';
import { mlRequest } from '../__fixtures__/requests';
import {
  addMlApp,
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from '../__fixtures__/gitopsRepo';
import { releaseOnDisk } from '../__testUtils__/releaseOnDisk';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const MIG_CONFIG = 'clusters/dev/gpu/mig/config.yaml';

const request = (
  name: string,
  gpu: Record<string, unknown>,
  workload?: Record<string, unknown>,
): GpuRequest => mlRequest(name, gpu, { workload });

const l4Shared = (name: string, replicas: number) =>
  request(name, {
    model: 'l4',
    sharing: 'time-slicing',
    slicesPerGpu: 4,
    replicas,
    vramGiB: 4,
  });

async function snapshot(tree: FsRepoTree): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of await tree.listFiles('')) {
    files[path] = (await tree.readFile(path))!;
  }
  return files;
}

/**
 * Files the request; verify finds where its pods land, as kustomize builds
 * the workload or, in a plain manifest no root lists, as it is written.
 */
async function create(tree: FsRepoTree, gpuRequest: GpuRequest) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  // The model: its pods land on the planned pool and on no other pool built.
  expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
  await writeChangeSet(tree, change.changeSet);
  return change.plan;
}

const release = (tree: FsRepoTree, name: string) =>
  releaseOnDisk(tree, tree.root, name, cluster, builtinCatalog);

function firstDoc(text: string | undefined): any {
  return parseAllDocuments(text!)[0].toJS();
}

describe('releasing requests on a real GitOps tree', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await writeTempRepo(repoFiles);
    tree = new FsRepoTree(dir);
  });
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it('A and B share a pool: releasing A shrinks it and leaves B alone; releasing B removes the pool, its overlays, config and entries', async () => {
    const original = await snapshot(tree);
    const planA = await create(tree, l4Shared('chat-a', 6));
    const planB = await create(tree, l4Shared('chat-b', 2));
    expect(planB.pool.name).toBe(planA.pool.name);
    const poolPath = `clusters/dev/gpu/nodepools/${planA.pool.name}.yaml`;
    const withBoth = await snapshot(tree);
    expect(firstDoc(withBoth[poolPath]).spec.limits['nvidia.com/gpu']).toBe(
      '2',
    );

    const first = await release(tree, 'chat-a');
    expect(first.plan.pools).toEqual([
      expect.objectContaining({
        name: planA.pool.name,
        releasedUnits: 6,
        removed: false,
        ledger: [{ request: 'ml/chat-b', replicas: 2, unitsPerReplica: 1 }],
      }),
    ]);
    const afterA = await snapshot(tree);
    const nodePool = firstDoc(afterA[poolPath]);
    expect(nodePool.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/chat-b=2',
    );
    expect(nodePool.spec.limits['nvidia.com/gpu']).toBe('1');
    // A's record and workload are gone; B's files are untouched.
    expect(afterA['requests/ml/chat-a.yaml']).toBeUndefined();
    expect(
      Object.keys(afterA).filter(p => p.startsWith('apps/ml/chat-a/')),
    ).toEqual([]);
    for (const path of Object.keys(withBoth).filter(p =>
      p.includes('chat-b'),
    )) {
      expect(afterA[path]).toBe(withBoth[path]);
    }
    // The money adds up: the pool's price before minus after.
    const [pool] = first.plan.pools;
    expect(first.plan.savedUsdPerMonth).toBeCloseTo(
      pool.usdPerMonthBefore - pool.usdPerMonthAfter,
      2,
    );
    expect(first.plan.savedUsdPerMonth).toBeGreaterThan(0);
    expect(await validateGitOpsTree(dir)).toEqual([]);

    const second = await release(tree, 'chat-b');
    expect(second.plan.pools[0]).toMatchObject({
      removed: true,
      nodesAfter: 0,
    });
    expect(second.plan.unusedDevicePluginConfigs).toEqual([
      planA.sharing.deviceConfigName,
    ]);
    // Everything the two requests added is gone: the tree is what it was.
    expect(await snapshot(tree)).toEqual(original);
    expect(await validateGitOpsTree(dir)).toEqual([]);
  });

  it('MIG: the entry goes with the last pool that selects it, and stays while a hand-written pool still does', async () => {
    const original = await snapshot(tree);
    const mig = (name: string) =>
      request(name, {
        model: 'a100-40gb',
        sharing: 'mig',
        replicas: 3,
        vramGiB: 9,
      });
    const plan = await create(tree, mig('vision'));
    const entry = plan.sharing.migConfigName!;
    const handWritten = 'clusters/dev/karpenter/a100-lab.yaml';
    await tree.writeFile(
      handWritten,
      `# Lab nodes, partitioned like the managed pool.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: a100-lab
spec:
  template:
    metadata:
      labels:
        nvidia.com/mig.config: ${entry}
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: [p4d.24xlarge]
`,
    );
    const labText = await tree.readFile(handWritten);
    const released = await release(tree, 'vision');
    expect(released.plan.pools[0].removed).toBe(true);
    const migConfig = (await tree.readFile(
      'clusters/dev/gpu/mig/config.yaml',
    ))!;
    expect(migConfig).toContain(`${entry}:`);
    expect(await tree.readFile(handWritten)).toBe(labText);
    expect(
      await tree.readFile(`clusters/dev/gpu/nodepools/${plan.pool.name}.yaml`),
    ).toBeUndefined();

    // Without the hand-written pool, the next release takes the entry too.
    await tree.deleteFile(handWritten);
    await create(tree, mig('vision'));
    await release(tree, 'vision');
    // Adding an entry keeps mig-configs sorted by name (the fixture's are
    // not), so only that file's key order differs from the original.
    const { [MIG_CONFIG]: migNow, ...rest } = await snapshot(tree);
    const { [MIG_CONFIG]: migBefore, ...restBefore } = original;
    expect(rest).toEqual(restBefore);
    expect(parse(migNow)).toEqual(parse(migBefore));
  });

  it('an existing workload patched through its kustomization is byte for byte what it was', async () => {
    const original = await snapshot(tree);
    await create(
      tree,
      request(
        'recommender-api',
        { model: 't4', sharing: 'exclusive', replicas: 3, vramGiB: 12 },
        { existing: { kind: 'Deployment', name: 'recommender-api' } },
      ),
    );
    expect(
      (await tree.listFiles('apps/ml/recommender-api')).length,
    ).toBeGreaterThan(2);
    await release(tree, 'recommender-api');
    expect(await snapshot(tree)).toEqual(original);
  });

  it('a plain manifest patched in place loses exactly the GPU fields the request added', async () => {
    const manifest = `# A batch worker applied as plain YAML.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: ml
  labels:
    backstage.io/kubernetes-id: embedder
spec:
  replicas: 2
  selector:
    matchLabels:
      app: embedder
  template:
    metadata:
      labels:
        app: embedder
    spec:
      containers:
        - name: sidecar
          image: ghcr.io/example/log-shipper:1.2.0
        - name: embedder
          image: ghcr.io/example/embedder:3.1.0 # pinned
          resources:
            limits:
              memory: 4Gi
`;
    await tree.writeFile('plain/embedder.yaml', manifest);
    const original = await snapshot(tree);
    await create(
      tree,
      request(
        'embedder',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        {
          existing: {
            kind: 'Deployment',
            name: 'embedder',
            container: 'embedder',
          },
        },
      ),
    );
    expect(await tree.readFile('plain/embedder.yaml')).not.toBe(manifest);
    await release(tree, 'embedder');
    expect(await snapshot(tree)).toEqual(original);
  });

  const staleSelection = `      nodeSelector:
        kubernetes.io/os: linux
        karpenter.sh/provisioner-name: gpu
        intent: gpu-workloads
        nvidia.com/gpu.present: "true"
        NodePool: gpu-ts
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: karpenter.k8s.aws/instance-family
                    operator: In
                    values: [g5]
                  - key: kubernetes.io/arch
                    operator: In
                    values: [amd64]
`;
  /** A GPU Deployment written for a v1alpha5 Provisioner `gpu` and a team's own node group. */
  const rankerManifest = `# Ranker: written for the v1alpha5 provisioner "gpu".
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ranker
  namespace: ml
spec:
  replicas: 1
  selector:
    matchLabels:
      app: ranker
  template:
    metadata:
      labels:
        app: ranker
    spec:
${staleSelection}      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: ranker
          image: ghcr.io/example/ranker:2.0.0 # pinned
          resources:
            limits:
              nvidia.com/gpu: 1
              memory: 8Gi
`;
  const rankerRequest = (gpu: Record<string, unknown>) =>
    request(
      'ranker',
      { vramGiB: 4, ...gpu },
      { existing: { kind: 'Deployment', name: 'ranker' } },
    );
  /** What the pods of the request's pool can be placed by: only what the pool's nodes satisfy. */
  const expectOnPoolOnly = (podSpec: any, pool: string) => {
    expect(podSpec.nodeSelector).toEqual({
      'kubernetes.io/os': 'linux',
      'karpenter.sh/nodepool': pool,
    });
    expect(podSpec.affinity.nodeAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
            ],
          },
        ],
      },
    });
  };

  it('an existing workload with stale selectors: its pods select only what the pool satisfies, the PR says which went, and the release puts them back', async () => {
    await addMlApp(tree, 'ranker', rankerManifest);
    const original = await snapshot(tree);

    const change = await buildRequestChange({
      tree,
      dir: tree.root,
      request: rankerRequest({
        model: 'l4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas: 2,
      }),
      cluster,
      catalog: builtinCatalog,
    });
    await writeChangeSet(tree, change.changeSet);
    // kustomize's build lists the selectors by key: the order is not the manifest's.
    const notes = change.plan.warnings.filter(w =>
      w.startsWith("The workload's"),
    );
    expect(notes).toHaveLength(5);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'nodeSelector `karpenter.sh/provisioner-name: gpu`',
        ),
        expect.stringContaining('nodeSelector `intent: gpu-workloads`'),
        expect.stringContaining('nodeSelector `nvidia.com/gpu.present: true`'),
        expect.stringContaining('nodeSelector `NodePool: gpu-ts`'),
        expect.stringContaining(
          'nodeAffinity `karpenter.k8s.aws/instance-family In [g5]`',
        ),
      ]),
    );
    const { body } = renderPullRequest({
      plan: change.plan,
      files: change.changeSet.changes,
    });
    expect(body).toContain(
      "The workload's nodeSelector `intent: gpu-workloads` is removed for this request: no node of pool",
    );
    const built = await kustomizeBuild(join(dir, 'apps', 'ml'));
    const ranker = built.find(
      o => o.kind === 'Deployment' && o.metadata.name === 'ranker',
    ) as any;
    expectOnPoolOnly(ranker.spec.template.spec, change.plan.pool.name);
    expect(ranker.spec.template.spec.containers[0].resources.limits).toEqual({
      memory: '8Gi',
      'nvidia.com/gpu.shared': '1',
    });

    await release(tree, 'ranker');
    expect(await snapshot(tree)).toEqual(original);
  });

  it.each([
    ['request → release', []],
    ['request → resize → release', [3]],
  ])(
    'a plain manifest with its own GPU limit and selectors, %s: every field comes back byte for byte',
    async (_, resizes: number[]) => {
      await tree.writeFile('plain/ranker.yaml', rankerManifest);
      const original = await snapshot(tree);
      const shared = await create(
        tree,
        rankerRequest({
          model: 'l4',
          sharing: 'time-slicing',
          slicesPerGpu: 4,
          replicas: 2,
        }),
      );
      let manifest = firstDoc(await tree.readFile('plain/ranker.yaml'));
      expectOnPoolOnly(manifest.spec.template.spec, shared.pool.name);
      expect(
        manifest.spec.template.spec.containers[0].resources.limits,
      ).toEqual({ memory: '8Gi', 'nvidia.com/gpu.shared': '1' });
      for (const replicas of resizes) {
        // Same pool, more replicas: the record must still hold the team's
        // values (1 replica, one whole GPU), not the first request's.
        const resized = await create(
          tree,
          rankerRequest({
            model: 'l4',
            sharing: 'time-slicing',
            slicesPerGpu: 4,
            replicas,
          }),
        );
        expect(resized.pool.name).toBe(shared.pool.name);
        manifest = firstDoc(await tree.readFile('plain/ranker.yaml'));
        expectOnPoolOnly(manifest.spec.template.spec, resized.pool.name);
        expect(manifest.spec.replicas).toBe(replicas);
        expect(
          manifest.spec.template.spec.containers[0].resources.limits,
        ).toEqual({ memory: '8Gi', 'nvidia.com/gpu.shared': '1' });
      }
      await release(tree, 'ranker');
      expect(await snapshot(tree)).toEqual(original);
    },
  );

  it("an overlay whose kustomization `replicas:` entry scales the workload: request → resize → release puts the team's count back", async () => {
    await addMlApp(
      tree,
      'ranker',
      rankerManifest,
      'replicas:\n  - name: ranker\n    count: 1 # one GPU today\n',
    );
    const original = await snapshot(tree);
    const sized = (replicas: number) =>
      rankerRequest({
        model: 'l4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas,
      });
    const builtReplicas = async () =>
      (
        (await kustomizeBuild(join(dir, 'apps', 'ml'))).find(
          o => o.kind === 'Deployment' && o.metadata.name === 'ranker',
        ) as any
      ).spec.replicas;
    await create(tree, sized(2));
    expect(await builtReplicas()).toBe(2);
    await create(tree, sized(3));
    expect(await builtReplicas()).toBe(3);
    await release(tree, 'ranker');
    expect(await snapshot(tree)).toEqual(original);
  });

  const trainerManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: trainer
  namespace: ml
  labels:
    backstage.io/kubernetes-id: trainer
spec:
  selector:
    matchLabels:
      app: trainer
  template:
    metadata:
      labels:
        app: trainer
    spec:
      containers:
        - name: trainer
          image: ghcr.io/example/trainer:1.0.0
          resources:
            limits:
              nvidia.com/gpu: 1 # one A10 today
              cpu: "4"
            requests:
              nvidia.com/gpu: 1
              cpu: "4"
`;
  const trainerRequest = request(
    'trainer',
    {
      model: 'l4',
      sharing: 'exclusive',
      replicas: 1,
      vramGiB: 40,
      gpusPerReplica: 2,
    },
    { existing: { kind: 'Deployment', name: 'trainer' } },
  );

  it("a team's own edit after the request survives the release; what still holds the request's value comes back", async () => {
    await tree.writeFile('plain/trainer.yaml', trainerManifest);
    await create(tree, trainerRequest);
    const patched = (await tree.readFile('plain/trainer.yaml'))!;
    // The team raises the CPU limit of the GPU container while it has GPUs.
    const cpuLimit = patched.indexOf(
      'cpu: "4"',
      patched.indexOf('limits:', patched.indexOf('    containers:')),
    );
    const edited = `${patched.slice(0, cpuLimit)}cpu: "8"${patched.slice(cpuLimit + 'cpu: "4"'.length)}`;
    expect(edited).not.toBe(patched);
    await tree.writeFile('plain/trainer.yaml', edited);
    await release(tree, 'trainer');
    expect(await tree.readFile('plain/trainer.yaml')).toBe(
      trainerManifest.replace(
        '              cpu: "4"\n            requests:',
        '              cpu: "8"\n            requests:',
      ),
    );
  });

  it("a plain manifest with the team's own GPU limit: a request for 2 GPUs, then its release, gives back the limit byte for byte", async () => {
    const manifest = trainerManifest;
    await tree.writeFile('plain/trainer.yaml', manifest);
    const original = await snapshot(tree);
    await create(
      tree,
      request(
        'trainer',
        {
          model: 'l4',
          sharing: 'exclusive',
          replicas: 1,
          vramGiB: 40,
          gpusPerReplica: 2,
        },
        { existing: { kind: 'Deployment', name: 'trainer' } },
      ),
    );
    const patched = firstDoc(await tree.readFile('plain/trainer.yaml'));
    expect(patched.spec.template.spec.containers[0].resources).toEqual({
      limits: { 'nvidia.com/gpu': '2', cpu: '4' },
      requests: { 'nvidia.com/gpu': '2', cpu: '4' },
    });
    await release(tree, 'trainer');
    // Before: the release stripped the GPU limit, leaving a CPU workload.
    expect(await tree.readFile('plain/trainer.yaml')).toBe(manifest);
    expect(await snapshot(tree)).toEqual(original);
  });

  it("a reused pool's own template labels fit: a selector its nodes carry stays, the others go", async () => {
    const poolPath = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    await tree.writeFile(
      poolPath,
      (await tree.readFile(poolPath))!.replace(
        '        nvidia.com/device-plugin.config: ts-4\n',
        '        nvidia.com/device-plugin.config: ts-4\n        intent: gpu-workloads\n',
      ),
    );
    await tree.writeFile(
      'plain/ranker.yaml',
      rankerManifest.replace(staleSelection, ''),
    );
    const manifest = (await tree.readFile('plain/ranker.yaml'))!.replace(
      '    spec:\n      tolerations:',
      '    spec:\n      nodeSelector:\n        intent: gpu-workloads\n        karpenter.sh/provisioner-name: gpu\n      tolerations:',
    );
    await tree.writeFile('plain/ranker.yaml', manifest);
    const plan = await create(
      tree,
      rankerRequest({
        model: 't4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas: 1,
      }),
    );
    expect(plan.pool).toMatchObject({ name: 'gpu-t4-ts4', reused: true });
    const patched = firstDoc(await tree.readFile('plain/ranker.yaml'));
    expect(patched.spec.template.spec.nodeSelector).toEqual({
      intent: 'gpu-workloads',
      'karpenter.sh/nodepool': 'gpu-t4-ts4',
    });
    await release(tree, 'ranker');
    // The pool keeps the ledger the adoption gave it: only the manifest is compared.
    expect(await tree.readFile('plain/ranker.yaml')).toBe(manifest);
  });

  /** The fixture's T4 pool as a team writes it: not the product's, an integer GPU budget, a `true`-valued taint. */
  async function handWrittenT4Pool(): Promise<string> {
    const poolPath = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    await tree.writeFile(
      poolPath,
      (await tree.readFile(poolPath))!
        .replace(
          '  labels:\n    app.kubernetes.io/managed-by: backstage-gpu-gitops\n',
          '',
        )
        .replace(
          '    nvidia.com/gpu.shared: "8" # raised by GPU requests\n',
          "    nvidia.com/gpu: 1 # the team's budget\n",
        ),
    );
    return poolPath;
  }

  it("a request that raises a team's own NodePool, then its release, gives the pool file back byte for byte", async () => {
    const poolPath = await handWrittenT4Pool();
    // No workload of the team's runs there yet: the request is its first and last.
    await tree.writeFile(
      'apps/ml/kustomization.yaml',
      (await tree.readFile('apps/ml/kustomization.yaml'))!.replace(
        '  - chat-assistant\n',
        '',
      ),
    );
    for (const path of await tree.listFiles('apps/ml/chat-assistant')) {
      await tree.deleteFile(path);
    }
    const original = await snapshot(tree);
    const plan = await create(
      tree,
      request('captioner', {
        model: 't4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas: 12,
        vramGiB: 4,
      }),
    );
    expect(plan.pool).toMatchObject({ name: 'gpu-t4-ts4', reused: true });
    const raised = firstDoc(await tree.readFile(poolPath));
    expect(Number(raised.spec.limits['nvidia.com/gpu'])).toBeGreaterThan(1);
    await release(tree, 'captioner');
    // Before: `requests: ""`, the limit-floor annotation and a quoted limit stayed.
    expect(await tree.readFile(poolPath)).toBe(original[poolPath]);
    expect(await snapshot(tree)).toEqual(original);
  });

  it('a plain manifest patched in place onto a pool whose taint value is not its name: the release takes the toleration back', async () => {
    await handWrittenT4Pool();
    const manifest = rankerManifest
      .replace(staleSelection, '')
      .replace(
        '      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n',
        '',
      )
      .replace('              nvidia.com/gpu: 1\n', '');
    await tree.writeFile('plain/ranker.yaml', manifest);
    await create(
      tree,
      rankerRequest({
        model: 't4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas: 1,
      }),
    );
    const patched = firstDoc(await tree.readFile('plain/ranker.yaml'));
    expect(patched.spec.template.spec.tolerations).toEqual([
      {
        key: 'nvidia.com/gpu',
        operator: 'Equal',
        value: 'true',
        effect: 'NoSchedule',
      },
    ]);
    await release(tree, 'ranker');
    expect(await tree.readFile('plain/ranker.yaml')).toBe(manifest);
  });

  it('a manifest patched in place before the product recorded what it replaced: the release still takes a `true`-valued toleration back', async () => {
    await handWrittenT4Pool();
    const manifest = rankerManifest
      .replace(staleSelection, '')
      .replace(
        '      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n',
        '',
      )
      .replace('              nvidia.com/gpu: 1\n', '');
    await tree.writeFile('plain/ranker.yaml', manifest);
    await create(
      tree,
      rankerRequest({
        model: 't4',
        sharing: 'time-slicing',
        slicesPerGpu: 4,
        replicas: 1,
      }),
    );
    // What an older release of the product wrote: the same patch, no record.
    const patched = parseDocument((await tree.readFile('plain/ranker.yaml'))!);
    patched.deleteIn(['metadata', 'annotations', 'gpu.backstage.io/replaced']);
    const left = patched.getIn(['metadata', 'annotations']) as
      { items: unknown[] } | undefined;
    if (left && left.items.length === 0)
      patched.deleteIn(['metadata', 'annotations']);
    await tree.writeFile('plain/ranker.yaml', patched.toString());
    expect(await tree.readFile('plain/ranker.yaml')).toContain('value: "true"');
    await release(tree, 'ranker');
    // Without a record only what the patch added can go: the pod spec is the team's again.
    const released = firstDoc(await tree.readFile('plain/ranker.yaml'));
    expect(released.spec.template.spec).toEqual(
      firstDoc(manifest).spec.template.spec,
    );
  });

  it('a file a person added to the workload folder stays, still listed, and the folder still builds', async () => {
    await create(tree, l4Shared('chat-a', 2));
    const service = `# Added by the team after the request.
apiVersion: v1
kind: Service
metadata:
  name: chat-a
  namespace: ml
spec:
  selector:
    app.kubernetes.io/name: chat-a
  ports:
    - port: 80
`;
    await tree.writeFile('apps/ml/chat-a/service.yaml', service);
    const kustomizationPath = 'apps/ml/chat-a/kustomization.yaml';
    const listed = (await tree.readFile(kustomizationPath))!.replace(
      'resources:\n',
      'resources:\n  - service.yaml\n',
    );
    await tree.writeFile(kustomizationPath, listed);

    const released = await release(tree, 'chat-a');
    expect(
      released.changeSet.changes.map(c => `${c.action} ${c.path}`),
    ).toEqual(
      expect.arrayContaining([
        'delete apps/ml/chat-a/deployment.yaml',
        `update ${kustomizationPath}`,
      ]),
    );
    expect(await tree.readFile('apps/ml/chat-a/service.yaml')).toBe(service);
    expect(parse((await tree.readFile(kustomizationPath))!).resources).toEqual([
      'service.yaml',
    ]);
    // verifyRelease built the folder before and after: only ours went.
    expect(released.verification?.verified).toEqual(
      expect.arrayContaining(['apps']),
    );
    expect(await validateGitOpsTree(dir)).toEqual([]);
  });

  it('releasing twice, or a request that is not merged, says so and changes nothing', async () => {
    await create(tree, l4Shared('chat-a', 2));
    await release(tree, 'chat-a');
    const before = await snapshot(tree);
    const error = await release(tree, 'chat-a').catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues[0]).toMatchObject({
      path: 'metadata.name',
      rule: 'not-in-repository',
    });
    expect(error.issues[0].message).toMatch(
      /ml\/chat-a is not in the repository: there is no requests\/ml\/chat-a\.yaml\. Either its pull request is not merged yet .*, or it was released already\./,
    );
    expect(await snapshot(tree)).toEqual(before);
  });

  it('names, before it is sent, the objects the team added beside the workload the request created: they stay', async () => {
    await create(tree, l4Shared('chat-a', 2));
    const folder = 'apps/ml/chat-a';
    const service = `apiVersion: v1
kind: Service
metadata:
  name: chat-a
  namespace: ml
spec:
  selector:
    app: chat-a
  ports:
    - port: 80
`;
    await tree.writeFile(`${folder}/service.yaml`, service);
    await tree.writeFile(
      `${folder}/kustomization.yaml`,
      (await tree.readFile(`${folder}/kustomization.yaml`))!.replace(
        'resources:\n',
        'resources:\n  - service.yaml\n',
      ),
    );
    const change = await buildReleaseChange({
      tree,
      dir: tree.root,
      request: { namespace: 'ml', name: 'chat-a' },
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
    });
    expect(change.leaves).toEqual([
      { kind: 'Service', name: 'chat-a', path: `${folder}/service.yaml` },
    ]);
    const deleted = change.changeSet.changes
      .filter(c => c.action === 'delete')
      .map(c => c.path);
    expect(deleted).toContain(`${folder}/deployment.yaml`);
    expect(deleted).not.toContain(`${folder}/service.yaml`);
    const { body } = renderReleasePullRequest({
      plan: change.plan,
      files: change.changeSet.changes,
      leaves: change.leaves,
    });
    const stays = body.slice(body.indexOf('### What stays'));
    expect(stays).toContain(
      `Service \`chat-a\` (\`${folder}/service.yaml\`): the product did not write it, so the release leaves it`,
    );
  });
});
