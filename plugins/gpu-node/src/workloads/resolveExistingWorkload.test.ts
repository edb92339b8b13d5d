import {
  GpuInputError,
  parseGpuRequest,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../repo/tree';
import { resolveExistingWorkload } from './resolveExistingWorkload';

function requestFor(kind: WorkloadKind, name: string) {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      cluster: 'prod-eu',
      gpu: { model: 'l4', sharing: 'exclusive', replicas: 2, vramGiB: 20 },
      workload: { existing: { kind, name } },
    },
  });
}

const deployment = (name: string, replicas = 1) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers: [{ name: app, image: app:1 }]
`;

const job = (name: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: train, image: train:1 }]
`;

const kustomization = (
  body: string,
) => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
${body}`;

/** Locates `kind`/`name` (namespace ml) in a repository of `files`. */
function locate(
  files: Record<string, string>,
  kind: WorkloadKind,
  name: string,
  cluster = 'prod-eu',
) {
  return resolveExistingWorkload(
    new MemoryRepoTree(files),
    requestFor(kind, name),
    { cluster, labelDomain: 'gpu.example.com' },
  );
}

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GpuInputError);
  return (error as GpuInputError).issues[0];
}

describe('resolveExistingWorkload', () => {
  it('ignores a file its folder’s kustomization does not list (a leftover copy is not deployed)', async () => {
    const location = await locate(
      {
        'apps/api/base/kustomization.yaml': kustomization(
          'resources: [deployment.yaml]\n',
        ),
        'apps/api/base/deployment.yaml': deployment('api'),
        'apps/api/base/deployment-old.yaml': deployment('api'),
        'apps/api/prod-eu/kustomization.yaml': kustomization(
          'namespace: ml\nresources: [../base]\n',
        ),
      },
      'Deployment',
      'api',
    );
    expect(location.file).toBe('apps/api/base/deployment.yaml');
    expect(location.apply).toEqual({
      mode: 'patch',
      root: 'apps/api/prod-eu',
      patchFolder: 'apps/api/prod-eu',
      kustomization: 'apps/api/prod-eu/kustomization.yaml',
    });
  });

  it('names the outermost kustomization whose `replicas:` entry scales the workload', async () => {
    const location = await locate(
      {
        'apps/api/base/kustomization.yaml': kustomization(
          'resources: [deployment.yaml]\nreplicas: [{ name: api, count: 2 }]\n',
        ),
        'apps/api/base/deployment.yaml': deployment('api'),
        'apps/api/prod-eu/kustomization.yaml': kustomization(
          'namespace: ml\nresources: [../base]\nreplicas: [{ name: api, count: 4 }]\n',
        ),
      },
      'Deployment',
      'api',
    );
    expect(location.apply).toMatchObject({
      mode: 'patch',
      replicasEntry: 'apps/api/prod-eu/kustomization.yaml',
    });
  });

  it('leaves a Job’s parallelism to the patch: kustomize’s `replicas:` does not scale Jobs', async () => {
    const location = await locate(
      {
        'batch/kustomization.yaml': kustomization(
          'namespace: ml\nresources: [job.yaml]\nreplicas: [{ name: train, count: 3 }]\n',
        ),
        'batch/job.yaml': job('train'),
      },
      'Job',
      'train',
    );
    expect(location.apply).toEqual({
      mode: 'patch',
      root: 'batch',
      patchFolder: 'batch',
      kustomization: 'batch/kustomization.yaml',
    });
  });

  it('edits a manifest no kustomization deploys in place', async () => {
    const location = await locate(
      {
        'tools/notebook.yaml': deployment('notebook'),
      },
      'Deployment',
      'notebook',
    );
    expect(location.apply).toEqual({ mode: 'in-place' });
    expect(location.documentIndex).toBe(0);
  });

  it('picks the overlay named after the cluster when several deploy the workload', async () => {
    const files = {
      'apps/api/base/kustomization.yaml': kustomization(
        'resources: [deployment.yaml]\n',
      ),
      'apps/api/base/deployment.yaml': deployment('api'),
      'apps/api/overlays/prod-eu/kustomization.yaml': kustomization(
        'namespace: ml\nresources: [../../base]\n',
      ),
      'apps/api/overlays/prod-us/kustomization.yaml': kustomization(
        'namespace: ml\nresources: [../../base]\n',
      ),
    };
    const location = await locate(files, 'Deployment', 'api');
    expect(location.apply).toMatchObject({
      root: 'apps/api/overlays/prod-eu',
    });

    const refusal = await refusalOf(
      locate(files, 'Deployment', 'api', 'staging'),
    );
    expect(refusal).toMatchObject({
      path: 'spec.workload.existing.name',
      rule: 'overlay-ambiguous',
    });
    expect(refusal.message).toContain('apps/api/overlays/prod-us');
  });

  it('refuses the only overlay when it is named after another cluster of the repository', async () => {
    // The repository deploys to prod-eu and aks-weu (their cluster folders);
    // the workload has one overlay, prod-eu's. Patching it for an aks-weu
    // request would put the pods on prod-eu, which lacks the aks-weu pool.
    const withoutOverlay = {
      'clusters/prod-eu/gpu/kustomization.yaml':
        kustomization('resources: []\n'),
      'clusters/aks-weu/gpu/kustomization.yaml':
        kustomization('resources: []\n'),
      'apps/api/base/kustomization.yaml': kustomization(
        'resources: [deployment.yaml]\n',
      ),
      'apps/api/base/deployment.yaml': deployment('api'),
    };
    const overlay = kustomization('namespace: ml\nresources: [../../base]\n');
    const files = {
      ...withoutOverlay,
      'apps/api/overlays/prod-eu/kustomization.yaml': overlay,
    };
    const refusal = await refusalOf(
      locate(files, 'Deployment', 'api', 'aks-weu'),
    );
    expect(refusal).toMatchObject({
      path: 'spec.workload.existing.name',
      rule: 'overlay-other-cluster',
    });
    expect(refusal.message).toContain('apps/api/overlays/prod-eu');
    expect(refusal.message).toContain('cluster "prod-eu", not "aks-weu"');

    // prod-eu's own request is patched there, as before.
    const own = await locate(files, 'Deployment', 'api', 'prod-eu');
    expect(own.apply).toMatchObject({ root: 'apps/api/overlays/prod-eu' });

    // An overlay named after no cluster (an environment) is still patched.
    const environment = await locate(
      {
        ...withoutOverlay,
        'apps/api/overlays/production/kustomization.yaml': overlay,
      },
      'Deployment',
      'api',
      'aks-weu',
    );
    expect(environment.apply).toMatchObject({
      root: 'apps/api/overlays/production',
    });
  });

  it('refuses to edit in place a manifest kept in another cluster’s folder', async () => {
    const files = {
      'clusters/prod-eu/apps/api.yaml': deployment('api'),
      'clusters/dev/gpu/kustomization.yaml': kustomization('resources: []\n'),
    };
    const refusal = await refusalOf(locate(files, 'Deployment', 'api', 'dev'));
    expect(refusal).toMatchObject({ rule: 'overlay-other-cluster' });
    expect(refusal.message).toContain(
      'written only in clusters/prod-eu/apps/api.yaml',
    );
    const own = await locate(files, 'Deployment', 'api', 'prod-eu');
    expect(own.apply).toEqual({ mode: 'in-place' });
  });

  it('refuses a workload that is not in the repository, naming the field', async () => {
    const refusal = await refusalOf(
      locate({ 'a/deploy.yaml': deployment('other') }, 'Deployment', 'api'),
    );
    expect(refusal.path).toBe('spec.workload.existing.name');
    expect(refusal.message).toContain('Deployment "api"');
  });
});
