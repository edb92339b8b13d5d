/**
 * The real `gpu-gitops` process on a repository shaped like a platform
 * team's (test/fixtures/gitops-platform-repo): overlays, several
 * containers, StatefulSet, Job, CronJob, hand-written apps and NodePools,
 * Helm and an operator. Every tree it writes builds with the real kustomize
 * and validates clean; every refusal names the field and the rule and writes
 * nothing.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { simpleGit } from 'simple-git';
import { kustomizeBuild } from '@gpu-gitops/plugin-gpu-node';
import {
  buildEveryRoot,
  builtObject,
  copyFixture,
  fixtures,
  gpuGitops,
  removeTempDirs,
  seedBareRepo,
  snapshotTree,
  tempDir,
} from '../gitopsFixtures';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

afterAll(removeTempDirs);

function request(
  name: string,
  namespace: string,
  gpu: string,
  workload: string,
): string {
  return `kind: GpuRequest
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  owner: group:default/ml-platform
  cluster: prod-eu
  gpu: ${gpu}
  workload: ${workload}
`;
}

/** Renders a request into a copy of the platform fixture. */
function render(requestYaml: string) {
  const repo = copyFixture(fixtures.platformRepo);
  const before = snapshotTree(repo);
  const file = path.join(path.dirname(repo), 'req.yaml');
  writeFileSync(file, requestYaml);
  const run = gpuGitops(path.dirname(repo), [
    'render',
    '--request',
    file,
    '--out',
    repo,
  ]);
  return { repo, before, run };
}

function expectValidates(repo: string) {
  const validate = gpuGitops(repo, ['validate', '.']);
  expect(validate.stdout).toContain('no findings');
  expect(validate.code).toBe(0);
}

const recommender = (extra: string, replicas = 3) =>
  request(
    'recommender',
    'ml',
    `{ model: t4, sharing: time-slicing, replicas: ${replicas}, vramGiB: 3 }`,
    `{ existing: { kind: Deployment, name: recommender${extra} } }`,
  );

describe('gpu-gitops on a platform team repository', () => {
  it('refuses a workload with several containers when none is named, listing them; pushes nothing', async () => {
    const bare = await seedBareRepo(fixtures.platformRepo);
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'req.yaml'), recommender(''));
    const run = gpuGitops(cwd, [
      'pr',
      '--request',
      'req.yaml',
      '--repo',
      bare,
      '--cache-dir',
      path.join(cwd, 'cache'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('spec.workload.existing.container');
    expect(run.stderr).toContain('(api, metrics-exporter)');
    expect(run.stderr).toContain('[container-required]');
    const branches = await simpleGit(bare).branch(['--list']);
    expect(branches.all).toEqual(['main']);
  });

  it('patches the named container in the overlay that deploys to the cluster; the base, the other overlay and the sidecar stay as they were', async () => {
    const repo = copyFixture(fixtures.platformRepo);
    const before = await buildEveryRoot(repo);
    writeFileSync(
      path.join(repo, '../req.yaml'),
      recommender(', container: api'),
    );
    const run = gpuGitops(path.dirname(repo), [
      'render',
      '--request',
      'req.yaml',
      '--out',
      repo,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'create apps/ml/recommender/overlays/prod-eu/gpu-patch-recommender.yaml',
    );
    expect(run.stdout).not.toContain('apps/ml/recommender/base');
    const after = await buildEveryRoot(repo);

    const prodBefore = builtObject(
      before.get('apps/ml/recommender/overlays/prod-eu'),
      'Deployment',
      'recommender',
    );
    const prod = builtObject(
      after.get('apps/ml/recommender/overlays/prod-eu'),
      'Deployment',
      'recommender',
    );
    const [api, sidecar] = prod.spec.template.spec.containers;
    expect(api.name).toBe('api');
    expect(api.resources.limits).toEqual({
      memory: '12Gi',
      'nvidia.com/gpu.shared': '1',
    });
    expect(api.image).toBe('ghcr.io/acme/recommender:4.2.0');
    expect(api.env).toEqual(prodBefore.spec.template.spec.containers[0].env);
    expect(sidecar).toEqual(prodBefore.spec.template.spec.containers[1]);
    // The overlay's replica count is kept: the request asked for as many.
    expect(prod.spec.replicas).toBe(3);
    // The workload's own toleration first, then the pool's.
    expect(prod.spec.template.spec.tolerations[0]).toEqual(
      prodBefore.spec.template.spec.tolerations[0],
    );
    expect(prod.spec.template.spec.nodeSelector).toEqual({
      'karpenter.sh/nodepool': expect.stringMatching(/^gpu-t4-ts\d/),
    });
    // Staging (another overlay of the same base) is untouched.
    expect(after.get('apps/ml/recommender/overlays/staging')).toEqual(
      before.get('apps/ml/recommender/overlays/staging'),
    );
    expectValidates(repo);
  });

  it('changes the count in the overlay’s own `replicas:` entry, which kustomize applies after every patch', async () => {
    const repo = copyFixture(fixtures.platformRepo);
    const overlay = path.join(repo, 'apps/ml/recommender/overlays/prod-eu');
    writeFileSync(
      path.join(overlay, 'kustomization.yaml'),
      `# prod-eu: three replicas in namespace ml.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ml
resources:
  - ../../base
replicas:
  - name: recommender
    count: 3 # scaled for the autumn peak
`,
    );
    rmSync(path.join(overlay, 'replicas.yaml'));
    writeFileSync(
      path.join(repo, '../req.yaml'),
      recommender(', container: api', 2),
    );
    const run = gpuGitops(path.dirname(repo), [
      'render',
      '--request',
      'req.yaml',
      '--out',
      repo,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const built = await buildEveryRoot(repo);
    const prod = builtObject(
      built.get('apps/ml/recommender/overlays/prod-eu'),
      'Deployment',
      'recommender',
    );
    expect(prod.spec.replicas).toBe(2);
    const kustomization = readFileSync(
      path.join(overlay, 'kustomization.yaml'),
      'utf8',
    );
    expect(kustomization).toContain('count: 2 # scaled for the autumn peak');
    const [patch] = parseAllDocuments(
      readFileSync(path.join(overlay, 'gpu-patch-recommender.yaml'), 'utf8'),
    ).map(d => d.toJS());
    expect(patch.kind).toBe('Deployment');
    expect(patch.spec).not.toHaveProperty('replicas');
    expectValidates(repo);
  });

  it('says a changed replica count in bold in the pull request, and which container gets the GPU', async () => {
    const bare = await seedBareRepo(fixtures.platformRepo);
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, 'req.yaml'),
      recommender(', container: api', 2),
    );
    const run = gpuGitops(cwd, [
      'pr',
      '--request',
      'req.yaml',
      '--repo',
      bare,
      '--cache-dir',
      path.join(cwd, 'cache'),
      '--dry-run',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { body, diff } = JSON.parse(run.stdout);
    expect(body).toContain('| Replicas | **replicas 3 → 2** |');
    expect(body).toContain(
      '| GPU container | `api` (containers: `api`, `metrics-exporter`; the others are unchanged) |',
    );
    expect(diff).toContain('+  replicas: 2');
  });

  it.each([
    [
      'StatefulSet',
      'vector-db',
      'ml',
      ', container: db',
      'apps/ml/vector-db',
      'db',
      'backup-agent',
    ],
    [
      'Job',
      'train-nightly',
      'batch',
      '',
      'apps/batch/train-nightly',
      'trainer',
      undefined,
    ],
  ])(
    'gives GPUs to the %s %s: the named container only',
    async (kind, name, namespace, container, root, gpuContainer, other) => {
      const { repo, run } = render(
        request(
          name,
          namespace,
          '{ model: l4, sharing: exclusive, replicas: 2, vramGiB: 20 }',
          `{ existing: { kind: ${kind}, name: ${name}${container} } }`,
        ),
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const built = builtObject(
        (await buildEveryRoot(repo)).get(root),
        kind,
        name,
      );
      const containers = built.spec.template.spec.containers;
      expect(
        containers.find((c: any) => c.name === gpuContainer).resources.limits,
      ).toEqual({ 'nvidia.com/gpu': '1' });
      // The other container (when there is one) asks for nothing new.
      const others = containers.filter((c: any) => c.name !== gpuContainer);
      expect(others.map((c: any) => c.name)).toEqual(other ? [other] : []);
      expect(others.map((c: any) => c.resources)).toEqual(
        others.map(() => undefined),
      );
      expectValidates(repo);
    },
  );

  it('gives GPUs to a model server behind its proxy (the GPU container is second of three): the containers keep their order, only its resources change', async () => {
    const root = 'apps/ml/llm-chat';
    const deployed = async (repo: string) =>
      builtObject(
        await kustomizeBuild(path.join(repo, root)),
        'Deployment',
        'llm-chat',
      ).spec.template.spec;
    const before = await deployed(fixtures.platformRepo);
    const { repo, run } = render(
      request(
        'llm-chat',
        'ml',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: llm-chat, container: vllm } }',
      ),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`create ${root}/gpu-patch-llm-chat.yaml`);
    const after = await deployed(repo);
    expect(after.containers.map((c: any) => c.name)).toEqual([
      'oauth-proxy',
      'vllm',
      'log-shipper',
    ]);
    const withoutResources = ({ resources: _r, ...rest }: any) => rest;
    expect(after.containers.map(withoutResources)).toEqual(
      before.containers.map(withoutResources),
    );
    expect(after.containers.map((c: any) => c.resources)).toEqual([
      undefined,
      {
        requests: { cpu: '4', memory: '24Gi' },
        limits: { 'nvidia.com/gpu': '1' },
      },
      undefined,
    ]);
    expect(after.volumes).toEqual(before.volumes);
    expectValidates(repo);
  }, 90_000);

  it('releases the model server behind its proxy: the repository is byte for byte what it was', async () => {
    const root = tempDir();
    const bare = await seedBareRepo(fixtures.platformRepo);
    writeFileSync(
      path.join(root, 'req.yaml'),
      request(
        'llm-chat',
        'ml',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: llm-chat, container: vllm } }',
      ),
    );
    const repoArgs = ['--repo', bare, '--cache-dir', path.join(root, 'cache')];
    const remote = simpleGit(bare);
    const seeded = (await remote.revparse(['main'])).trim();
    const pr = gpuGitops(root, ['pr', '--request', 'req.yaml', ...repoArgs]);
    expect(pr.code).toBe(0);
    await remote.raw(['update-ref', 'refs/heads/main', 'gpu/ml-llm-chat']);
    const release = gpuGitops(root, [
      'release',
      '--name',
      'ml/llm-chat',
      ...repoArgs,
    ]);
    expect(release.code).toBe(0);
    expect(
      await remote.raw(['diff', '--stat', seeded, 'gpu/release-ml-llm-chat']),
    ).toBe('');
  }, 90_000);

  it('gives GPUs to a CronJob inside its job template', async () => {
    const { repo, run } = render(
      request(
        'embeddings-refresh',
        'batch',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: CronJob, name: embeddings-refresh } }',
      ),
    );
    expect(run.code).toBe(0);
    const built = builtObject(
      (await buildEveryRoot(repo)).get('apps/batch/embeddings-refresh'),
      'CronJob',
      'embeddings-refresh',
    );
    const template = built.spec.jobTemplate.spec.template.spec;
    expect(template.containers[0].resources).toEqual({
      requests: { cpu: '2', memory: '16Gi' },
      limits: { 'nvidia.com/gpu': '1' },
    });
    expect(built.spec.schedule).toBe('0 2 * * *');
    expectValidates(repo);
  });

  it('edits a plain manifest folder (no kustomization) in place, keeping its comment', async () => {
    const { repo, run } = render(
      request(
        'notebook',
        'tools',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: notebook } }',
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('update apps/tools/notebook/deployment.yaml');
    const text = readFileSync(
      path.join(repo, 'apps/tools/notebook/deployment.yaml'),
      'utf8',
    );
    expect(text).toContain('# A plain manifest folder');
    const [deployment] = parseAllDocuments(text).map(d => d.toJS());
    expect(deployment.spec.template.spec.containers[0]).toMatchObject({
      name: 'jupyter',
      image: 'quay.io/jupyter/pytorch-notebook:2026-10-06',
      ports: [{ containerPort: 8888 }],
      resources: { limits: { 'nvidia.com/gpu': '1' } },
    });
    expectValidates(repo);
  });

  it('keeps the fields people added to the product’s own workload when the request changes', async () => {
    const { repo, run } = render(
      request(
        'chat-assistant',
        'ml',
        '{ model: l4, sharing: time-slicing, replicas: 3, vramGiB: 5 }',
        '{ image: ghcr.io/acme/chat-assistant:3.2.0 }',
      ),
    );
    expect(run.code).toBe(0);
    const text = readFileSync(
      path.join(repo, 'apps/ml/chat-assistant/deployment.yaml'),
      'utf8',
    );
    expect(text).toContain('# Added by the ML team');
    const [deployment] = parseAllDocuments(text).map(d => d.toJS());
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0]).toMatchObject({
      image: 'ghcr.io/acme/chat-assistant:3.2.0',
      ports: [{ containerPort: 8080 }],
      resources: {
        requests: { cpu: '500m', memory: '2Gi' },
        limits: { 'nvidia.com/gpu.shared': '1' },
      },
    });
    expectValidates(repo);
  });

  it('never takes the name of a hand-written NodePool: the new pool gets the next free name and the cluster builds', async () => {
    const { repo, run } = render(
      request(
        'summarizer',
        'ml',
        '{ model: t4, sharing: time-slicing, replicas: 2, vramGiB: 3 }',
        '{ image: ghcr.io/acme/summarizer:1.0.0 }',
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'create clusters/prod-eu/gpu/nodepools/gpu-t4-ts5-2.yaml',
    );
    expect(
      readFileSync(
        path.join(repo, 'clusters/prod-eu/karpenter/gpu-t4-ts5.yaml'),
        'utf8',
      ),
    ).toBe(
      readFileSync(
        path.join(
          fixtures.platformRepo,
          'clusters/prod-eu/karpenter/gpu-t4-ts5.yaml',
        ),
        'utf8',
      ),
    );
    const cluster = (await buildEveryRoot(repo)).get('clusters/prod-eu');
    const pools = cluster!.filter(o => o.kind === 'NodePool');
    expect(pools.map(p => p.metadata.name).sort()).toEqual([
      'a100-research',
      'default',
      'gpu-l4-ts4',
      'gpu-t4-ts5',
      'gpu-t4-ts5-2',
    ]);
    expectValidates(repo);
  });

  it.each([
    [
      'a workload rendered by Helm',
      request(
        'triton',
        'serving',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: triton } }',
      ),
      'spec.workload.existing.name',
      'workload-helm',
    ],
    [
      'a workload an operator renders',
      request(
        'llm-gateway',
        'serving',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: llm-gateway } }',
      ),
      'spec.workload.existing.name',
      'workload-operator',
    ],
    [
      'a workload of another kind',
      request(
        'vector-db',
        'ml',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: vector-db, container: db } }',
      ),
      'spec.workload.existing.kind',
      'workload-kind',
    ],
    [
      'a workload that is not in the repository',
      request(
        'ghost',
        'ml',
        '{ model: l4, sharing: exclusive, replicas: 1, vramGiB: 20 }',
        '{ existing: { kind: Deployment, name: ghost } }',
      ),
      'spec.workload.existing.name',
      'workload-not-found',
    ],
    [
      'a container the workload does not have',
      recommender(', container: web'),
      'spec.workload.existing.container',
      'container-not-found',
    ],
    [
      'a new workload named like a hand-written one',
      request(
        'storefront',
        'web',
        '{ model: l4, sharing: time-slicing, replicas: 2, vramGiB: 4 }',
        '{ image: ghcr.io/acme/storefront:13.0.0 }',
      ),
      'metadata.name',
      'name-taken',
    ],
    [
      'a system namespace',
      request(
        'llm',
        'gpu-operator',
        '{ model: l4, sharing: time-slicing, replicas: 2, vramGiB: 4 }',
        '{ image: ghcr.io/acme/llm:1.0 }',
      ),
      'metadata.namespace',
      'system-namespace',
    ],
    [
      'a cluster without GPU setup',
      request(
        'llm',
        'ml',
        '{ model: l4, sharing: time-slicing, replicas: 2, vramGiB: 4 }',
        '{ image: ghcr.io/acme/llm:1.0 }',
      ).replace('cluster: prod-eu', 'cluster: prod-us'),
      'spec.cluster',
      'cluster-not-bootstrapped',
    ],
  ])(
    'refuses %s: exit 2, names the field and rule, writes nothing',
    (_what, yaml, field, rule) => {
      const { repo, before, run } = render(yaml);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(field);
      expect(run.stderr).toContain(`[${rule}]`);
      expect(snapshotTree(repo)).toEqual(before);
    },
  );
});
