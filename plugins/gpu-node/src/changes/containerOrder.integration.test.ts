/**
 * Issue 29: GPUs for a container that is not the first. A workload of every
 * kind whose GPU container is second or third of three, deployed through a
 * Kustomize overlay or written as a plain manifest: the request is accepted
 * (the kustomize check finds the containers in their order), the built
 * workload lists its containers as before and only the GPU container's
 * resources change, and the release gives back every file byte for byte.
 */
import {
  builtinCatalog,
  WORKLOAD_KINDS,
  workloadShape,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { join } from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { kustomizeBuild } from '../kustomize/build';
import { FsRepoTree } from '../repo/tree';
import { buildRequestChange } from './buildRequestChange';
import { writeChangeSet } from './stagedTree';
import { mlRequest } from './__fixtures__/requests';
import {
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';
import { releaseOnDisk } from './__testUtils__/releaseOnDisk';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const GPU_CONTAINER = 'model-server';

const CONTAINERS: Record<string, Record<string, unknown>> = {
  'auth-proxy': {
    name: 'auth-proxy',
    image: 'envoyproxy/envoy:v1.31.0',
    ports: [{ containerPort: 8443 }],
    env: [{ name: 'UPSTREAM', value: '127.0.0.1:8080' }],
  },
  'log-shipper': {
    name: 'log-shipper',
    image: 'fluent/fluent-bit:3.1.9',
    volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }],
  },
  [GPU_CONTAINER]: {
    name: GPU_CONTAINER,
    image: 'ghcr.io/example/vllm:0.6.3',
    env: [
      { name: 'MODEL', value: 'llama-3.1-8b' },
      { name: 'PORT', value: '8080' },
    ],
    resources: { requests: { cpu: '2', memory: '8Gi' } },
    volumeMounts: [
      { name: 'logs', mountPath: '/var/log/app' },
      { name: 'cache', mountPath: '/root/.cache' },
    ],
  },
};

/** The containers in order, the GPU one at `gpuAt` (1-based). */
function containerNames(gpuAt: 2 | 3): string[] {
  return gpuAt === 2
    ? ['auth-proxy', GPU_CONTAINER, 'log-shipper']
    : ['auth-proxy', 'log-shipper', GPU_CONTAINER];
}

/** A DRA claim of the team's own: the pod's, and its use by the GPU container. */
const OWN_CLAIM = {
  name: 'scratch',
  resourceClaimTemplateName: 'fast-scratch',
};

function containersOf(gpuAt: 2 | 3, ownClaim: boolean) {
  return containerNames(gpuAt).map(c =>
    ownClaim && c === GPU_CONTAINER
      ? {
          ...CONTAINERS[c],
          resources: {
            ...(CONTAINERS[c].resources as object),
            claims: [{ name: OWN_CLAIM.name }],
          },
        }
      : CONTAINERS[c],
  );
}

/** A hand-written workload of `kind`: three containers, an init container, volumes, a toleration. */
function workloadYaml(
  kind: WorkloadKind,
  name: string,
  gpuAt: 2 | 3,
  ownClaim = false,
): string {
  const batch = kind === 'Job' || kind === 'CronJob';
  const podTemplate = {
    metadata: { labels: { app: name } },
    spec: {
      ...(batch ? { restartPolicy: 'Never' } : {}),
      ...(ownClaim ? { resourceClaims: [OWN_CLAIM] } : {}),
      initContainers: [
        {
          name: 'fetch-weights',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'echo fetched'],
        },
      ],
      containers: containersOf(gpuAt, ownClaim),
      volumes: [
        { name: 'logs', emptyDir: {} },
        { name: 'cache', emptyDir: {} },
      ],
      tolerations: [
        {
          key: 'dedicated',
          operator: 'Equal',
          value: 'ml',
          effect: 'NoSchedule',
        },
      ],
    },
  };
  const selector = { matchLabels: { app: name } };
  const specs: Record<WorkloadKind, Record<string, unknown>> = {
    Deployment: { replicas: 2, selector, template: podTemplate },
    StatefulSet: {
      serviceName: name,
      replicas: 2,
      selector,
      template: podTemplate,
    },
    Job: { parallelism: 2, template: podTemplate },
    CronJob: {
      schedule: '0 3 * * *',
      jobTemplate: { spec: { parallelism: 2, template: podTemplate } },
    },
  };
  const object = {
    apiVersion: batch ? 'batch/v1' : 'apps/v1',
    kind,
    metadata: {
      name,
      namespace: 'ml',
      labels: { app: name, 'backstage.io/kubernetes-id': name },
    },
    spec: specs[kind],
  };
  return `# ${kind} ${name}: the model server behind its proxy (written by the team).\n${stringify(object)}`;
}

type Mode = 'overlay' | 'plain';

/** The files of the workload, and where its deployed form is read. */
function workloadFiles(
  mode: Mode,
  kind: WorkloadKind,
  name: string,
  gpuAt: 2 | 3,
  ownClaim = false,
): { files: Record<string, string>; root?: string; manifest: string } {
  const workload = workloadYaml(kind, name, gpuAt, ownClaim);
  if (mode === 'plain') {
    const manifest = `plain/${name}.yaml`;
    return { files: { [manifest]: workload }, manifest };
  }
  const base = `apps/ml/${name}/base`;
  const root = `apps/ml/${name}/overlays/dev`;
  return {
    files: {
      [`${base}/kustomization.yaml`]:
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - workload.yaml\n',
      [`${base}/workload.yaml`]: workload,
      [`${root}/kustomization.yaml`]:
        '# The dev cluster runs the base as it is.\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../base\n',
    },
    root,
    manifest: `${base}/workload.yaml`,
  };
}

async function snapshot(tree: FsRepoTree): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of await tree.listFiles('')) {
    files[path] = (await tree.readFile(path))!;
  }
  return files;
}

/** The pod spec of the workload as deployed: the overlay's build, or the plain manifest. */
async function deployedPodSpec(
  dir: string,
  tree: FsRepoTree,
  kind: WorkloadKind,
  where: { root?: string; manifest: string },
): Promise<any> {
  const object = where.root
    ? (await kustomizeBuild(join(dir, where.root))).find(o => o.kind === kind)
    : parseAllDocuments((await tree.readFile(where.manifest))!)[0].toJS();
  return workloadShape(kind)
    .podTemplate.concat('spec')
    .reduce((node: any, key) => node?.[key], object);
}

const cases = WORKLOAD_KINDS.flatMap(kind =>
  (['overlay', 'plain'] as const).flatMap(mode =>
    ([2, 3] as const).map(gpuAt => [kind, mode, gpuAt] as const),
  ),
);

describe('GPUs for a container that is not the first', () => {
  let dir: string;
  let tree: FsRepoTree;
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it.each(cases)(
    '%s (%s), GPU container %i of 3: accepted, containers in their order, only its resources change; release restores every byte',
    async (kind, mode, gpuAt) => {
      const name = `llm-${kind.toLowerCase()}`;
      const where = workloadFiles(mode, kind, name, gpuAt);
      dir = await writeTempRepo({ ...repoFiles, ...where.files });
      tree = new FsRepoTree(dir);
      const original = await snapshot(tree);
      const before = await deployedPodSpec(dir, tree, kind, where);

      const change = await buildRequestChange({
        tree,
        dir,
        request: mlRequest(
          name,
          { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
          { workload: { existing: { kind, name, container: GPU_CONTAINER } } },
        ),
        cluster,
        catalog: builtinCatalog,
      });
      await writeChangeSet(tree, change.changeSet);
      // The overlay's own base is never written; a plain manifest is edited in place.
      expect(
        change.changeSet.changes.some(c => c.path === where.manifest),
      ).toBe(mode === 'plain');

      const after = await deployedPodSpec(dir, tree, kind, where);
      expect(after.containers.map((c: any) => c.name)).toEqual(
        containerNames(gpuAt),
      );
      const gpu = after.containers.find((c: any) => c.name === GPU_CONTAINER);
      expect(gpu.resources).toEqual({
        requests: { cpu: '2', memory: '8Gi' },
        limits: { 'nvidia.com/gpu': '1' },
      });
      const withoutResources = ({ resources: _r, ...rest }: any) => rest;
      expect(after.containers.map(withoutResources)).toEqual(
        before.containers.map(withoutResources),
      );
      expect(
        after.containers
          .filter((c: any) => c.name !== GPU_CONTAINER)
          .map((c: any) => c.resources),
      ).toEqual([undefined, undefined]);
      expect(after.initContainers).toEqual(before.initContainers);
      expect(after.volumes).toEqual(before.volumes);
      expect(after.tolerations.slice(0, 1)).toEqual(before.tolerations);

      await releaseOnDisk(tree, dir, name, cluster, builtinCatalog);
      expect(await snapshot(tree)).toEqual(original);
    },
  );
});

describe('DRA claims of a workload that has its own', () => {
  let dir: string;
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it.each(['overlay', 'plain'] as const)(
    '%s: the workload’s own claims stay first, the request’s come after; release restores every byte',
    async mode => {
      const name = 'llm-claims';
      const where = workloadFiles(mode, 'Deployment', name, 3, true);
      dir = await writeTempRepo({ ...repoFiles, ...where.files });
      const tree = new FsRepoTree(dir);
      const original = await snapshot(tree);

      const change = await buildRequestChange({
        tree,
        dir,
        request: mlRequest(
          name,
          { model: 'l4', sharing: 'dra', replicas: 2, vramGiB: 16 },
          {
            workload: {
              existing: { kind: 'Deployment', name, container: GPU_CONTAINER },
            },
          },
        ),
        cluster,
        catalog: builtinCatalog,
      });
      await writeChangeSet(tree, change.changeSet);

      const pod = await deployedPodSpec(dir, tree, 'Deployment', where);
      expect(pod.resourceClaims).toEqual([
        OWN_CLAIM,
        { name: 'gpu', resourceClaimTemplateName: `${name}-gpu` },
      ]);
      const gpu = pod.containers.find((c: any) => c.name === GPU_CONTAINER);
      expect(gpu.resources.claims).toEqual([
        { name: 'scratch' },
        { name: 'gpu', request: 'gpu' },
      ]);
      expect(pod.containers.map((c: any) => c.name)).toEqual(containerNames(3));

      await releaseOnDisk(tree, dir, name, cluster, builtinCatalog);
      expect(await snapshot(tree)).toEqual(original);
    },
  );
});

describe('a resize of a GPU container that is not the first', () => {
  let dir: string;
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it.each(['overlay', 'plain'] as const)(
    '%s: re-rendered on another GPU model, the containers keep their order; release restores the workload’s files byte for byte',
    async mode => {
      const name = 'llm-resized';
      const where = workloadFiles(mode, 'Deployment', name, 2);
      dir = await writeTempRepo({ ...repoFiles, ...where.files });
      const tree = new FsRepoTree(dir);
      const original = await snapshot(tree);
      const file = async (gpu: Record<string, unknown>) => {
        const change = await buildRequestChange({
          tree,
          dir,
          request: mlRequest(
            name,
            { sharing: 'exclusive', replicas: 2, vramGiB: 12, ...gpu },
            {
              workload: {
                existing: {
                  kind: 'Deployment',
                  name,
                  container: GPU_CONTAINER,
                },
              },
            },
          ),
          cluster,
          catalog: builtinCatalog,
        });
        await writeChangeSet(tree, change.changeSet);
      };
      await file({ model: 't4' });
      await file({ model: 'l4' });

      const pod = await deployedPodSpec(dir, tree, 'Deployment', where);
      expect(pod.containers.map((c: any) => c.name)).toEqual(containerNames(2));
      const gpu = pod.containers.find((c: any) => c.name === GPU_CONTAINER);
      expect(gpu.resources.limits).toEqual({ 'nvidia.com/gpu': '1' });
      expect(pod.nodeSelector).toEqual({ 'karpenter.sh/nodepool': 'gpu-l4' });

      // The workload's files; the pools a resize leaves are another matter.
      const workloadPart = (files: Record<string, string>) =>
        Object.fromEntries(
          Object.entries(files).filter(
            ([path]) =>
              path.startsWith('apps/ml/') || path.startsWith('plain/'),
          ),
        );
      await releaseOnDisk(tree, dir, name, cluster, builtinCatalog);
      expect(workloadPart(await snapshot(tree))).toEqual(
        workloadPart(original),
      );
    },
  );
});
