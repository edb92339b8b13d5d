/**
 * Requests on an AWS Karpenter cluster that runs Kueue: the real planner,
 * builders and merge engine, each change written as a merge would, every
 * kustomization root built with the real kustomize, the Kueue objects
 * checked against Kueue v0.19.2's CRDs (gpu-common `crds/SOURCES.md`).
 */
import path from 'node:path';
import { parse } from 'yaml';
import { builtinCatalog, type GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import {
  celRules,
  crdSchemaErrors,
} from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { kustomizeBuild } from '../../kustomize/build';
import type { GpuPolicy } from '../../policy/gpuPolicy';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { writeChangeSet } from '../stagedTree';
import {
  buildableRepoFiles,
  devCluster,
  removeTempRepo,
  writeTempRepo,
} from '../__fixtures__/gitopsRepo';
import { mlRequest } from '../__fixtures__/requests';

jest.setTimeout(300_000);

const CRDS: Record<string, string> = {
  ResourceFlavor: 'kueue-v0.19.2_kueue.x-k8s.io_resourceflavors.yaml',
  ClusterQueue: 'kueue-v0.19.2_kueue.x-k8s.io_clusterqueues.yaml',
  LocalQueue: 'kueue-v0.19.2_kueue.x-k8s.io_localqueues.yaml',
  Cohort: 'kueue-v0.19.2_kueue.x-k8s.io_cohorts.yaml',
};

/** Every Kueue object of a build, against its kind's vendored CRD (a kind with none fails). */
function kueueSchemaErrors(objects: Array<Record<string, any>>): string[] {
  return objects
    .filter(o => o.apiVersion === KUEUE)
    .flatMap(o =>
      CRDS[o.kind]
        ? crdSchemaErrors(o, CRDS[o.kind]).map(e => `${o.kind}: ${e}`)
        : [`${o.kind}: no vendored CRD`],
    );
}

const KUEUE = 'kueue.x-k8s.io/v1beta2';
const cluster = { ...devCluster, kueue: true };
const policy = (
  gpuQuota: number,
  kueue?: GpuPolicy['defaults']['kueue'],
): GpuPolicy => ({
  defaults: {},
  groups: [{ owner: 'group:default/ml-platform', gpuQuota, kueue }],
});

const requests: GpuRequest[] = [
  mlRequest('t4-exclusive', {
    model: 't4',
    sharing: 'exclusive',
    replicas: 2,
    vramGiB: 12,
  }),
  mlRequest('t4-ts', {
    model: 't4',
    sharing: 'time-slicing',
    replicas: 6,
    vramGiB: 3,
    slicesPerGpu: 4,
  }),
  mlRequest('a100-mig', {
    model: 'a100-40gb',
    sharing: 'mig',
    replicas: 3,
    vramGiB: 18,
  }),
];

async function requestOnDisk(
  tree: FsRepoTree,
  request: GpuRequest,
  quota: number,
  kueue?: GpuPolicy['defaults']['kueue'],
) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request,
    cluster,
    catalog: builtinCatalog,
    policy: policy(quota, kueue),
  });
  await writeChangeSet(tree, change.changeSet);
  return change;
}

describe('Kueue queues on an AWS Karpenter cluster', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await writeTempRepo(buildableRepoFiles);
    tree = new FsRepoTree(dir);
  });
  afterEach(() => removeTempRepo(dir));

  it('time-slicing, exclusive and MIG requests add schema-valid queues with the team quota, and label each workload', async () => {
    const changes = [];
    for (const request of requests)
      changes.push(await requestOnDisk(tree, request, 2));
    for (const change of changes) {
      expect(change.verification?.verified).toContain('clusters/dev');
    }
    const built = await kustomizeBuild(path.join(dir, 'clusters/dev/gpu'));
    const kueue = built.filter(o => o.apiVersion === KUEUE);
    expect(kueueSchemaErrors(kueue)).toEqual([]);
    const pools = changes.map(c => c.plan.pool.name);
    expect(
      kueue.filter(o => o.kind === 'ResourceFlavor').map(o => o.metadata.name),
    ).toEqual(expect.arrayContaining(pools));
    const queue = kueue.find(o => o.kind === 'ClusterQueue')!;
    expect(queue.metadata.name).toBe('ml-platform');
    const nominal = Object.fromEntries(
      (queue as any).spec.resourceGroups.flatMap((g: any) =>
        g.flavors.map((f: any) => [f.name, f.resources[0].nominalQuota]),
      ),
    );
    // The team's 2 GPUs, in each pool's units.
    expect(nominal).toEqual({
      [changes[0].plan.pool.name]: 2,
      [changes[1].plan.pool.name]: 2 * 4,
      [changes[2].plan.pool.name]:
        2 *
        changes[2].plan.sharing.migLayout![changes[2].plan.sharing.migProfile!],
    });
    expect(
      kueue
        .filter(o => o.kind === 'LocalQueue')
        .map(o => `${o.metadata.namespace}/${o.metadata.name}`),
    ).toEqual(['ml/ml-platform']);
    for (const request of requests) {
      const app = await kustomizeBuild(
        path.join(dir, `apps/ml/${request.metadata.name}`),
      );
      const deployment = app.find(o => o.kind === 'Deployment')!;
      expect(
        (deployment.metadata.labels as Record<string, string>)[
          'kueue.x-k8s.io/queue-name'
        ],
      ).toBe('ml-platform');
    }
  });

  it('★ refuses a team quota above what the pool limits provision, and writes nothing', async () => {
    // 3 GPUs of quota; the exclusive T4 pool's limits provision the 2 its replicas need.
    await expect(requestOnDisk(tree, requests[0], 3)).rejects.toMatchObject({
      issues: [
        expect.objectContaining({
          rule: 'kueue-quota-above-pool',
          message: expect.stringContaining(
            "Kueue quotas on pool gpu-t4 add up to 3 nvidia.com/gpu (ml-platform 3 (3 GPUs)) but the pool's limits provision only 2 (2 GPUs)",
          ),
        }),
      ],
    });
    expect(
      await tree.readFile('apps/ml/t4-exclusive/kustomization.yaml'),
    ).toBeUndefined();
  });

  it('release gives back the queue label, the team quota on the released pool and, with the last request, every queue the product added', async () => {
    for (const request of requests.slice(0, 2)) {
      await requestOnDisk(tree, request, 2);
    }
    const release = async (name: string) => {
      const change = await buildReleaseChange({
        tree,
        dir,
        request: { namespace: 'ml', name },
        clusterProfile: () => cluster,
        catalog: builtinCatalog,
        policy: policy(2),
      });
      await writeChangeSet(tree, change.changeSet);
      return change;
    };
    const kueueObjects = async () =>
      (await kustomizeBuild(path.join(dir, 'clusters/dev/gpu')))
        .filter(o => o.apiVersion === 'kueue.x-k8s.io/v1beta2')
        .map(o => `${o.kind}/${o.metadata.name}`)
        .sort();

    const first = await release('t4-exclusive');
    expect(first.verification?.verified).toContain('clusters/dev');
    // The exclusive pool went with its last request: its flavor and the team's quota on it too.
    expect(await kueueObjects()).toEqual([
      'ClusterQueue/ml-platform',
      'LocalQueue/ml-platform',
      'ResourceFlavor/gpu-t4-ts4',
    ]);
    expect(
      await tree.readFile('apps/ml/t4-exclusive/deployment.yaml'),
    ).toBeUndefined();

    await release('t4-ts');
    // No request of the team is left: the queues go; the pool kept by other requests keeps its flavor.
    expect(await kueueObjects()).toEqual(['ResourceFlavor/gpu-t4-ts4']);
    const gpuKustomization = await tree.readFile(
      'clusters/dev/gpu/kustomization.yaml',
    );
    expect(gpuKustomization).not.toContain('cluster-queues');
    expect(gpuKustomization).not.toContain('local-queues');
  });

  /**
   * The workloads' files, for byte-for-byte comparisons (the cluster folder
   * keeps a flavor for the pool the fixture already had).
   */
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        (await tree.listFiles(''))
          .filter(f => f.startsWith('apps/') || f.startsWith('plain/'))
          .map(async f => [f, await tree.readFile(f)]),
      ),
    );
  const releaseRequest = async (name: string) => {
    const change = await buildReleaseChange({
      tree,
      dir,
      request: { namespace: 'ml', name },
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
      policy: policy(2),
    });
    await writeChangeSet(tree, change.changeSet);
    return change;
  };
  const queueLabelOf = (object: { metadata: Record<string, unknown> }) =>
    (object.metadata.labels as Record<string, string> | undefined)?.[
      'kueue.x-k8s.io/queue-name'
    ];

  it('an existing workload patched through its kustomization gets the queue label in its patch, and is byte for byte what it was after the release', async () => {
    const original = await snapshot();
    const change = await requestOnDisk(
      tree,
      mlRequest(
        'recommender-api',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        {
          workload: {
            existing: { kind: 'Deployment', name: 'recommender-api' },
          },
        },
      ),
      2,
    );
    expect(change.verification?.verified).toContain('apps/ml');
    const built = await kustomizeBuild(path.join(dir, 'apps/ml'));
    const deployment = built.find(
      o => o.kind === 'Deployment' && o.metadata.name === 'recommender-api',
    )!;
    expect(queueLabelOf(deployment)).toBe('ml-platform');
    // The label comes through the patch: the team's manifest is untouched.
    expect(await tree.readFile('apps/ml/recommender-api/deployment.yaml')).toBe(
      original['apps/ml/recommender-api/deployment.yaml'],
    );

    await releaseRequest('recommender-api');
    expect(await snapshot()).toEqual(original);
  });

  it('a plain manifest patched in place gets the queue label, and the release gives back the label it had', async () => {
    const manifest = `# A batch worker applied as plain YAML.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: ml
  labels:
    backstage.io/kubernetes-id: embedder
    kueue.x-k8s.io/queue-name: batch # the team's old queue
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
        - name: embedder
          image: ghcr.io/example/embedder:3.1.0 # pinned
`;
    await tree.writeFile('plain/embedder.yaml', manifest);
    const original = await snapshot();
    const change = await requestOnDisk(
      tree,
      mlRequest(
        'embedder',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        { workload: { existing: { kind: 'Deployment', name: 'embedder' } } },
      ),
      2,
    );
    expect(change.existing?.change.location.apply.mode).toBe('in-place');
    const patched = parse((await tree.readFile('plain/embedder.yaml'))!) as {
      metadata: { labels: Record<string, string> };
    };
    expect(patched.metadata.labels).toEqual({
      'backstage.io/kubernetes-id': 'embedder',
      'kueue.x-k8s.io/queue-name': 'ml-platform',
    });

    await releaseRequest('embedder');
    expect(await snapshot()).toEqual(original);
  });

  it("the policy's borrowing and lending limits land on each flavor of the team's queue, in the pool's units, valid against Kueue v0.19.2", async () => {
    for (const request of requests.slice(0, 2)) {
      await requestOnDisk(tree, request, 2, {
        borrowingLimit: 1,
        lendingLimit: 0.5,
      });
    }
    const built = await kustomizeBuild(path.join(dir, 'clusters/dev/gpu'));
    const queue = built.find(o => o.kind === 'ClusterQueue')!;
    expect(crdSchemaErrors(queue, CRDS.ClusterQueue)).toEqual([]);
    // Kueue's CEL rule: limits only with a cohort (not evaluated by the schema check).
    expect(celRules(CRDS.ClusterQueue, KUEUE, 'ClusterQueue')).toContainEqual(
      expect.stringContaining('!has(self.cohortName)'),
    );
    expect((queue as any).spec.cohortName).toBe('gpu-dev');
    const resources = Object.fromEntries(
      (queue as any).spec.resourceGroups.flatMap((g: any) =>
        g.flavors.map((f: any) => [f.name, f.resources]),
      ),
    );
    expect(resources).toEqual({
      // Exclusive: 1 unit per GPU.
      'gpu-t4': [
        {
          name: 'nvidia.com/gpu',
          nominalQuota: 2,
          borrowingLimit: 1,
          lendingLimit: 0,
        },
      ],
      // Time-sliced ×4: 4 units per GPU.
      'gpu-t4-ts4': [
        {
          name: 'nvidia.com/gpu.shared',
          nominalQuota: 8,
          borrowingLimit: 4,
          lendingLimit: 2,
        },
      ],
    });
  });

  it('validate counts the quota a hand-written Cohort holds on a flavor into what the cohort admits there', async () => {
    for (const request of requests.slice(0, 1))
      await requestOnDisk(tree, request, 2);
    const kueueFindings = async () =>
      (await validateGitOpsTree(dir, { cluster: { name: 'dev' } })).filter(f =>
        f.rule.startsWith('kueue'),
      );
    expect(await kueueFindings()).toEqual([]);
    // The platform team's own quota on the exclusive T4 pool, lent to every team of the cohort.
    await tree.writeFile(
      'clusters/dev/gpu/cohort.yaml',
      `apiVersion: ${KUEUE}
kind: Cohort
metadata:
  name: gpu-dev
spec:
  resourceGroups:
    - coveredResources: [nvidia.com/gpu]
      flavors:
        - name: gpu-t4
          resources:
            - name: nvidia.com/gpu
              nominalQuota: 1
`,
    );
    const kustomization = 'clusters/dev/gpu/kustomization.yaml';
    await tree.writeFile(
      kustomization,
      (await tree.readFile(kustomization))!.replace(
        'resources:\n',
        'resources:\n  - cohort.yaml\n',
      ),
    );
    expect(
      kueueSchemaErrors(
        await kustomizeBuild(path.join(dir, 'clusters/dev/gpu')),
      ),
    ).toEqual([]);
    expect(await kueueFindings()).toEqual([
      expect.objectContaining({
        object: 'ResourceFlavor/gpu-t4',
        rule: 'kueue-quota-above-pool',
        message: expect.stringContaining(
          "Kueue quotas on pool gpu-t4 add up to 3 nvidia.com/gpu (ml-platform 2 (2 GPUs), the cohort itself 1) but the pool's limits provision only 2",
        ),
      }),
    ]);
  });

  it('validate reports a flavor whose queues hold more than its pool provisions, and not the queues the product wrote', async () => {
    for (const request of requests) await requestOnDisk(tree, request, 2);
    const kueueFindings = async () =>
      (await validateGitOpsTree(dir, { cluster: { name: 'dev' } })).filter(f =>
        f.rule.startsWith('kueue'),
      );
    expect(await kueueFindings()).toEqual([]);

    // A hand edit: 3 GPUs of quota on the exclusive T4 pool that provisions 2.
    const queuePath = 'clusters/dev/gpu/kueue/cluster-queues/ml-platform.yaml';
    const queue = (await tree.readFile(queuePath))!;
    await tree.writeFile(
      queuePath,
      queue.replace(/(name: nvidia\.com\/gpu\n\s+nominalQuota:) 2/, '$1 3'),
    );
    expect(await kueueFindings()).toEqual([
      {
        file: 'clusters/dev/gpu/kueue/resource-flavors/gpu-t4.yaml',
        object: 'ResourceFlavor/gpu-t4',
        rule: 'kueue-quota-above-pool',
        message: expect.stringContaining(
          "Kueue quotas on pool gpu-t4 add up to 3 nvidia.com/gpu (ml-platform 3 (3 GPUs)) but the pool's limits provision only 2 (2 GPUs)",
        ),
      },
    ]);
  });
});
