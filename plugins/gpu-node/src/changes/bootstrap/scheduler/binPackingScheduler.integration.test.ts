/**
 * The bin-packing scheduler, start to end on a real GitOps tree on disk:
 * the bootstrap writes a scheduler that runs (Deployment of the cluster's
 * kube-scheduler, its RBAC and profile, each object valid against the
 * kubernetes-models schema), listed in the GPU folder the real kustomize
 * builds; a request on a cluster whose profile opts in names the scheduler
 * in its pods and lands on the planned pool; its release gives the
 * manifest back byte for byte.
 */
import {
  builtinCatalog,
  isGpuInputError,
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { parse } from 'yaml';
import { join } from 'node:path';
import { kustomizeBuild } from '../../../kustomize/build';
import { FsRepoTree, MemoryRepoTree } from '../../../repo/tree';
import { hasSchema, schemaError } from '../../../validate/schemas';
import { buildRequestChange } from '../../buildRequestChange';
import { writeChangeSet } from '../../stagedTree';
import { mlRequest } from '../../__fixtures__/requests';
import {
  buildableRepoFiles,
  devCluster,
  removeTempRepo,
  writeTempRepo,
} from '../../__fixtures__/gitopsRepo';
import { releaseOnDisk } from '../../__testUtils__/releaseOnDisk';
import { writes } from '../../__testUtils__/writes';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';

jest.setTimeout(300_000);

const SCHEDULER_FILE = 'clusters/dev/gpu/scheduler/gpu-binpack.yaml';
const binPackingCluster: ClusterProfile = {
  ...devCluster,
  kubernetesVersion: '1.36.2',
  binPacking: true,
};
const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };

const byKind = (objects: any[], kind: string) =>
  objects.filter(o => o.kind === kind);

describe('the bin-packing scheduler', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await writeTempRepo(buildableRepoFiles);
    tree = new FsRepoTree(dir);
  });
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it('the bootstrap writes a scheduler that runs: Deployment, RBAC and profile, schema-valid, built by kustomize from the GPU folder', async () => {
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, binPackingCluster, OPTIONS),
    );
    const kustomization = parse(
      (await tree.readFile('clusters/dev/gpu/kustomization.yaml'))!,
    );
    expect(kustomization.resources).toContain('scheduler/gpu-binpack.yaml');

    const built = (await kustomizeBuild(
      join(dir, 'clusters/dev/gpu'),
    )) as any[];
    const ours = built.filter(o =>
      String(o.metadata?.name).startsWith('gpu-binpack'),
    );
    expect(ours.map(o => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'ClusterRoleBinding/gpu-binpack-as-kube-scheduler',
      'ClusterRoleBinding/gpu-binpack-as-volume-scheduler',
      'ConfigMap/gpu-binpack-scheduler-config',
      'Deployment/gpu-binpack',
      'Role/gpu-binpack-leader-election',
      'RoleBinding/gpu-binpack-extension-apiserver-authentication-reader',
      'RoleBinding/gpu-binpack-leader-election',
      'ServiceAccount/gpu-binpack',
    ]);
    for (const object of ours) {
      expect(hasSchema(object.apiVersion, object.kind)).toBe(true);
      expect(schemaError(object)).toBeUndefined();
    }
    const roleRefs = [
      ...byKind(ours, 'ClusterRoleBinding'),
      ...byKind(ours, 'RoleBinding'),
    ].map(b => `${b.roleRef.kind}/${b.roleRef.name}`);
    expect(roleRefs.sort()).toEqual([
      'ClusterRole/system:kube-scheduler',
      'ClusterRole/system:volume-scheduler',
      'Role/extension-apiserver-authentication-reader',
      'Role/gpu-binpack-leader-election',
    ]);
    for (const binding of [
      ...byKind(ours, 'ClusterRoleBinding'),
      ...byKind(ours, 'RoleBinding'),
    ]) {
      expect(binding.subjects).toEqual([
        {
          kind: 'ServiceAccount',
          name: 'gpu-binpack',
          namespace: 'kube-system',
        },
      ]);
    }
    const [role] = byKind(ours, 'Role');
    expect(role.rules).toContainEqual({
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: ['gpu-binpack'],
      verbs: ['get', 'update'],
    });

    // The Deployment runs the cluster's kube-scheduler on the mounted profile.
    const [deployment] = byKind(ours, 'Deployment');
    const pod = deployment.spec.template.spec;
    expect(pod.serviceAccountName).toBe('gpu-binpack');
    const [container] = pod.containers;
    expect(container.image).toBe('registry.k8s.io/kube-scheduler:v1.36.2');
    const configArg = container.command.find((a: string) =>
      a.startsWith('--config='),
    );
    const configPath = configArg.slice('--config='.length);
    const mount = container.volumeMounts.find((m: any) =>
      configPath.startsWith(`${m.mountPath}/`),
    );
    const volume = pod.volumes.find((v: any) => v.name === mount.name);
    const [configMap] = byKind(ours, 'ConfigMap');
    expect(volume.configMap.name).toBe(configMap.metadata.name);
    const config = parse(
      configMap.data[configPath.slice(mount.mountPath.length + 1)],
    );
    expect(config.apiVersion).toBe('kubescheduler.config.k8s.io/v1');
    expect(config.leaderElection).toMatchObject({
      leaderElect: true,
      resourceName: 'gpu-binpack',
      resourceNamespace: 'kube-system',
    });
    expect(config.profiles[0].schedulerName).toBe('gpu-binpack');
    expect(config.profiles[0].pluginConfig[0].args.scoringStrategy.type).toBe(
      'MostAllocated',
    );
    expect(deployment.spec.selector.matchLabels).toEqual(
      deployment.spec.template.metadata.labels,
    );
  });

  it('a request on a cluster that opts in names the scheduler and lands on the planned pool; its release gives the manifest back', async () => {
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, binPackingCluster, OPTIONS),
    );
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: ml
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
          image: ghcr.io/example/embedder:3.1.0
`;
    await tree.writeFile('plain/embedder.yaml', manifest);
    const existing = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        'embedder',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        { workload: { existing: { kind: 'Deployment', name: 'embedder' } } },
      ),
      cluster: binPackingCluster,
      catalog: builtinCatalog,
    });
    expect(existing.verification?.landsOn).toEqual([existing.plan.pool.name]);
    await writeChangeSet(tree, existing.changeSet);
    const patched = parse((await tree.readFile('plain/embedder.yaml'))!);
    expect(patched.spec.template.spec.schedulerName).toBe('gpu-binpack');

    const created = await buildRequestChange({
      tree,
      dir,
      request: mlRequest('chat', {
        model: 't4',
        sharing: 'exclusive',
        replicas: 1,
        vramGiB: 12,
      }),
      cluster: binPackingCluster,
      catalog: builtinCatalog,
    });
    expect(created.verification?.landsOn).toEqual([created.plan.pool.name]);
    const deployment = created.manifests.workload.objects.find(
      o => o.kind === 'Deployment',
    ) as any;
    expect(deployment.spec.template.spec.schedulerName).toBe('gpu-binpack');

    await releaseOnDisk(
      tree,
      dir,
      'embedder',
      binPackingCluster,
      builtinCatalog,
    );
    expect(await tree.readFile('plain/embedder.yaml')).toBe(manifest);
  });

  it('a cluster that does not opt in keeps the default scheduler', async () => {
    const created = await buildRequestChange({
      tree,
      dir,
      request: mlRequest('chat', {
        model: 't4',
        sharing: 'exclusive',
        replicas: 1,
        vramGiB: 12,
      }),
      cluster: devCluster,
      catalog: builtinCatalog,
      verify: false,
    });
    const deployment = created.manifests.workload.objects.find(
      o => o.kind === 'Deployment',
    ) as any;
    expect(deployment.spec.template.spec.schedulerName).toBeUndefined();
  });

  it('refuses, naming kubernetesVersion, a scheduler whose kube-scheduler release the profile does not name; nothing written', async () => {
    const error = await buildBootstrapChangeSet(
      new MemoryRepoTree(),
      resolveClusterProfile({ name: 'dev', kubernetesVersion: '1.36' }),
      { ...OPTIONS, binPacking: true },
    ).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: 'kubernetesVersion',
        rule: 'bin-packing-kubernetes-version',
        message: expect.stringContaining('"1.36"'),
      }),
    ]);
    expect(() =>
      resolveClusterProfile({ name: 'dev', binPacking: true }),
    ).toThrow(/binPacking: .*kubernetesVersion must name it with its patch/);
  });

  it('a bootstrap asked for the scheduler on a profile that does not opt in says how to', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new MemoryRepoTree(),
      resolveClusterProfile({ name: 'dev', kubernetesVersion: 'v1.35.4' }),
      { ...OPTIONS, binPacking: true },
    );
    const file = writes(changeSet).find(w => w.path === SCHEDULER_FILE);
    expect(file?.content).toContain('registry.k8s.io/kube-scheduler:v1.35.4');
    expect(changeSet.notes.join('\n')).toContain('`binPacking: true`');
  });
});
