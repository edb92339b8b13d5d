import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  buildWorkloadPatch,
  isGpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
import { applyPlan } from '../changes/applyPlan';
import { writeChangeSet } from '../changes/stagedTree';
import {
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import {
  devCluster,
  migFixture,
  patchFixture,
  timeSlicingFixture,
} from '../changes/__fixtures__/plans';
import { FsRepoTree } from '../repo/tree';
import { prepareExistingWorkload } from '../workloads/prepareExistingWorkload';
import { Finding, validateGitOpsTree } from './validateGitOpsTree';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

const { ['apps/web/storefront/broken.yaml']: _broken, ...cleanBase } =
  existingRepoFiles;

/** The realistic repo plus a time-sliced app, a MIG app and a patched app, all via the merge engine. */
async function cleanTreeFiles(): Promise<Record<string, string>> {
  const dir = await writeTempRepo(cleanBase);
  dirs.push(dir);
  const tree = new FsRepoTree(dir);
  for (const fixture of [
    timeSlicingFixture({ reused: true, limit: 16 }),
    migFixture(),
  ]) {
    await writeChangeSet(
      tree,
      await applyPlan(tree, { ...fixture, cluster: devCluster }),
    );
  }
  // A patch request reads the workload it patches first (as the publisher does).
  const patch = patchFixture();
  const existing = await prepareExistingWorkload({
    dir,
    tree,
    request: patch.plan.request,
    cluster: devCluster,
  });
  patch.manifests.workload.objects = [
    buildWorkloadPatch(patch.plan, devCluster, existing.target),
  ];
  await writeChangeSet(
    tree,
    await applyPlan(tree, {
      ...patch,
      cluster: devCluster,
      existing: existing.change,
    }),
  );
  const files: Record<string, string> = {};
  for (const path of await tree.listFiles())
    files[path] = (await tree.readFile(path))!;
  return files;
}

async function validate(files: Record<string, string>): Promise<Finding[]> {
  const dir = await writeTempRepo(files);
  dirs.push(dir);
  return validateGitOpsTree(dir);
}

const rules = (findings: Finding[]) =>
  findings.map(f => `${f.file} ${f.object} ${f.rule}`);

describe('validateGitOpsTree', () => {
  let clean: Record<string, string>;
  beforeAll(async () => {
    clean = await cleanTreeFiles();
  });

  it('finds nothing wrong in a clean tree', async () => {
    expect(await validate(clean)).toEqual([]);
  });

  it('finds nothing wrong in the project fixture repository', async () => {
    expect(
      await validateGitOpsTree(
        join(__dirname, '../../../../test/fixtures/gitops-repo'),
      ),
    ).toEqual([]);
  });

  it('judges Karpenter objects by the API they are written in, and patches by what they build', async () => {
    // A v1beta1 base and its overlay's partial patches: no v1 rule applies
    // to them (the patches are not whole objects), and without a Karpenter
    // version nothing says they cannot be applied.
    const legacy = join(
      __dirname,
      '../import/__fixtures__/v1beta1-overlays-repo',
    );
    expect(await validateGitOpsTree(legacy)).toEqual([]);
    // Karpenter 1.14 serves v1 only: each legacy object cannot be applied.
    const findings = await validateGitOpsTree(legacy, {
      cluster: { name: 'prod', karpenterVersion: '1.14.1' },
    });
    expect(rules(findings)).toEqual([
      'clusters/prod/karpenter/base/cpu.yaml EC2NodeClass/default karpenter-api-not-served',
      'clusters/prod/karpenter/base/cpu.yaml NodePool/cpu karpenter-api-not-served',
      'clusters/prod/karpenter/base/gpu.yaml EC2NodeClass/gpu karpenter-api-not-served',
      'clusters/prod/karpenter/base/gpu.yaml NodePool/gpu-serve karpenter-api-not-served',
      'clusters/prod/karpenter/base/gpu.yaml NodePool/gpu-train karpenter-api-not-served',
    ]);
    // Karpenter 1.0 still serves v1beta1.
    expect(
      await validateGitOpsTree(legacy, {
        cluster: { name: 'prod', karpenterVersion: '1.0.8' },
      }),
    ).toEqual([]);
  });

  it('reports YAML syntax errors', async () => {
    const findings = await validate({
      ...clean,
      'apps/web/storefront/broken.yaml': 'kind: [unclosed\n',
    });
    expect(rules(findings)).toEqual([
      'apps/web/storefront/broken.yaml  yaml-syntax',
    ]);
  });

  it('reports objects that break their schema', async () => {
    const path = 'apps/ml/summarizer/deployment.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace('replicas: 2', 'replicas: two'),
    });
    expect(rules(findings)).toEqual([`${path} Deployment/summarizer schema`]);
    expect(findings[0].message).toMatch(/replicas/);
  });

  it('reports restricted Karpenter labels', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace(
        'gpu.backstage.io/pool: gpu-t4-ts4',
        'karpenter.sh/nodepool: gpu-t4-ts4',
      ),
    });
    expect(findings.map(f => [f.file, f.object])).toEqual([
      [path, 'NodePool/gpu-t4-ts4'],
    ]);
    expect(findings[0].rule).not.toBe('schema');
    expect(findings[0].message).toContain('karpenter.sh/nodepool');
  });

  it('reports device-plugin configs that break the plugin rules', async () => {
    const path = 'clusters/dev/gpu/device-plugin/ts-4.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace('replicas: 4', 'replicas: 1'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every(f => f.file === path && f.object === 'ts-4')).toBe(
      true,
    );
    expect(findings.map(f => f.message).join('\n')).toMatch(/replicas/);
  });

  it('reports a device-plugin config file that no ConfigMap key lists', async () => {
    const findings = await validate({
      ...clean,
      'clusters/dev/gpu/device-plugin/ts-8.yaml': clean[
        'clusters/dev/gpu/device-plugin/ts-4.yaml'
      ].replace('replicas: 4', 'replicas: 8'),
    });
    // Nor does any pool select it.
    expect(rules(findings)).toEqual([
      'clusters/dev/gpu/device-plugin/ts-8.yaml ts-8 config-not-listed',
      'clusters/dev/gpu/device-plugin/ts-8.yaml ts-8 device-plugin-config-unused',
    ]);
  });

  it('reports a broken mig-parted config', async () => {
    const path = 'clusters/dev/gpu/mig/config.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace('version: v1', 'version: v2'),
    });
    expect(findings.map(f => [f.file, f.rule])).toContainEqual([
      path,
      'version',
    ]);
  });

  it('reports config labels that name no existing key', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const mig = 'clusters/dev/gpu/nodepools/gpu-a100-40gb-mig-1g.5gb.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace(
        'nvidia.com/device-plugin.config: ts-4',
        'nvidia.com/device-plugin.config: ts-9',
      ),
      [mig]: clean[mig].replace(
        'nvidia.com/mig.config: all-1g.5gb',
        'nvidia.com/mig.config: all-2g.10gb',
      ),
    });
    // The pool no longer selects ts-4, and no other pool does.
    expect(rules(findings)).toEqual([
      'clusters/dev/gpu/device-plugin/ts-4.yaml ts-4 device-plugin-config-unused',
      `${mig} NodePool/gpu-a100-40gb-mig-1g.5gb unknown-mig-config`,
      `${path} NodePool/gpu-t4-ts4 unknown-device-plugin-config`,
    ]);
  });

  it('reports a MIG layout that does not fit the pool GPU', async () => {
    const path = 'clusters/dev/gpu/mig/config.yaml';
    // Eight 1g.5gb instances: more than the A100-40GB's seven compute slices.
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace('1g.5gb: 7', '1g.5gb: 8'),
    });
    expect(rules(findings)).toEqual([
      'clusters/dev/gpu/nodepools/gpu-a100-40gb-mig-1g.5gb.yaml NodePool/gpu-a100-40gb-mig-1g.5gb mig-layout-does-not-fit',
    ]);
  });

  it('reports a GPU workload no pool serves, and one that does not tolerate the pool taint', async () => {
    const unserved = 'apps/ml/summarizer/deployment.yaml';
    const untolerated = 'apps/ml/chat-assistant/deployment.yaml';
    const findings = await validate({
      ...clean,
      [unserved]: clean[unserved].replace(
        /nvidia\.com\/gpu\.shared/g,
        'nvidia.com/mig-2g.10gb',
      ),
      [untolerated]: clean[untolerated].replace(
        '      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n',
        '',
      ),
    });
    expect(rules(findings)).toEqual([
      `${untolerated} Deployment/chat-assistant untolerated-taint`,
      `${unserved} Deployment/summarizer unserved-resource`,
    ]);
  });

  it('reports a GPU workload whose selector or affinity no pool satisfies, naming what blocks it', async () => {
    const stale = 'apps/ml/chat-assistant/deployment.yaml';
    const findings = await validate({
      ...clean,
      [stale]: clean[stale].replace(
        '        karpenter.sh/nodepool: gpu-t4-ts4\n',
        '        karpenter.sh/nodepool: gpu-t4-ts4\n        intent: gpu-workloads\n',
      ),
    });
    expect(findings.filter(f => f.rule === 'workload-unschedulable')).toEqual([
      {
        file: stale,
        object: 'Deployment/chat-assistant',
        rule: 'workload-unschedulable',
        message:
          'its pods can land on no pool: nodeSelector intent=gpu-workloads: nodes of NodePool gpu-t4-ts4 never carry label intent',
      },
    ]);
    expect(rules(findings)).toEqual([
      `${stale} Deployment/chat-assistant workload-unschedulable`,
    ]);
  });

  it('reports a NodePool whose nodeClassRef names a node class the tree does not build, while it builds others', async () => {
    const pool = 'clusters/dev/karpenter/default-nodepool.yaml';
    const findings = await validate({
      ...clean,
      [pool]: `${clean[pool]}---
apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata:
  name: default
spec:
  imageFamily: Ubuntu2204
`,
    });
    expect(findings.map(f => [f.object, f.rule, f.message])).toContainEqual([
      'NodePool/default',
      'node-class-not-found',
      'spec.template.spec.nodeClassRef names EC2NodeClass/default (karpenter.k8s.aws), which no object of the cluster defines (its node classes: AKSNodeClass/default); Karpenter launches no node for this pool',
    ]);
    // Before, without any node class in the tree, nothing is judged.
    expect(
      (await validate(clean)).filter(f => f.rule === 'node-class-not-found'),
    ).toEqual([]);
  });

  it('reports a shared pool without a NodeOverlay', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const withoutOverlay = clean[path].slice(0, clean[path].indexOf('---\n'));
    const findings = await validate({ ...clean, [path]: withoutOverlay });
    expect(rules(findings)).toEqual([
      `${path} NodePool/gpu-t4-ts4 missing-node-overlay`,
    ]);
  });

  it('takes a shared pool’s NodeOverlay kept in a folder of no cluster (applied to every cluster), not one in another cluster’s folder', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const pool = clean[path].slice(0, clean[path].indexOf('---\n'));
    const overlay = clean[path].slice(clean[path].indexOf('---\n') + 4);
    const missing = (findings: Finding[]) =>
      rules(findings).filter(r => r.endsWith('missing-node-overlay'));
    expect(
      missing(
        await validate({
          ...clean,
          [path]: pool,
          'infrastructure/karpenter/gpu-overlays.yaml': overlay,
        }),
      ),
    ).toEqual([]);
    expect(
      missing(
        await validate({
          ...clean,
          [path]: pool,
          'clusters/other/karpenter/gpu-overlays.yaml': overlay,
        }),
      ),
    ).toEqual([`${path} NodePool/gpu-t4-ts4 missing-node-overlay`]);
  });

  it('accepts shared pools without NodeOverlays on clusters that do not use them', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const dir = await writeTempRepo({
      ...clean,
      [path]: clean[path].slice(0, clean[path].indexOf('---\n')),
    });
    dirs.push(dir);
    expect(await validateGitOpsTree(dir, { nodeOverlay: false })).toEqual([]);
  });

  it('reports the same object defined twice in a cluster folder', async () => {
    const path = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const overlay = clean[path].slice(clean[path].indexOf('---\n'));
    const findings = await validate({
      ...clean,
      'clusters/dev/gpu/nodepools/copy.yaml': overlay,
    });
    expect(rules(findings)).toEqual([
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml NodeOverlay/gpu-t4-ts4-1gpu duplicate-object',
    ]);
  });

  describe('what nothing uses any more', () => {
    const pool = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    /** A request released by hand: its record, its folder and the folder's entry gone. */
    const withoutRequest = (name: string) => {
      const files = Object.fromEntries(
        Object.entries(clean).filter(
          ([path]) =>
            path !== `requests/ml/${name}.yaml` &&
            !path.startsWith(`apps/ml/${name}/`),
        ),
      );
      const apps = 'apps/ml/kustomization.yaml';
      files[apps] = files[apps]
        .split('\n')
        .filter(line => line.trim().replace(/\/$/, '') !== `- ${name}`)
        .join('\n');
      return files;
    };
    const withoutSummarizer = () => withoutRequest('summarizer');
    const migPool = 'clusters/dev/gpu/nodepools/gpu-a100-40gb-mig-1g.5gb.yaml';

    it('reports a ledger entry whose request and workload are gone', async () => {
      const findings = await validate({
        ...clean,
        [pool]: clean[pool].replace(
          'gpu.backstage.io/requests: ml/summarizer=2',
          'gpu.backstage.io/requests: ml/gone=1,ml/summarizer=2',
        ),
      });
      expect(rules(findings)).toEqual([
        `${pool} NodePool/gpu-t4-ts4 ledger-names-no-request`,
      ]);
      expect(findings[0].message).toContain('ml/gone');
    });

    it('reports a managed pool that no request and no workload uses, and names the files to delete', async () => {
      const files = withoutRequest('trainer');
      expect(Object.keys(files).length).toBeLessThan(Object.keys(clean).length);
      const findings = await validate(files);
      expect(rules(findings)).toEqual([
        `${migPool} NodePool/gpu-a100-40gb-mig-1g.5gb pool-serves-no-request`,
      ]);
      expect(findings[0].message).toContain(`delete ${migPool}`);
      expect(findings[0].message).toContain('ml/trainer');
    });

    it('counts a workload still on the pool: the pool serves it, only the ledger entry is stale', async () => {
      const findings = await validate(withoutSummarizer());
      expect(rules(findings)).toEqual([
        `${pool} NodePool/gpu-t4-ts4 ledger-names-no-request`,
      ]);
      expect(findings[0].message).toContain('ml/summarizer');
    });

    it('reports a device-plugin config no pool selects once its pool is gone', async () => {
      const files = withoutSummarizer();
      delete files[pool];
      const findings = await validate(files);
      expect(rules(findings)).toContainEqual(
        'clusters/dev/gpu/device-plugin/ts-4.yaml ts-4 device-plugin-config-unused',
      );
    });

    it('never reports a hand-written pool, whatever its annotations say', async () => {
      const handWritten = clean[pool]
        .replace(
          'app.kubernetes.io/managed-by: backstage-gpu-gitops',
          'team: ml',
        )
        .replace(
          'gpu.backstage.io/requests: ml/summarizer=2',
          'gpu.backstage.io/requests: ml/gone=1',
        );
      const findings = await validate({
        ...withoutSummarizer(),
        [pool]: handWritten,
      });
      expect(
        findings.filter(f =>
          ['pool-serves-no-request', 'ledger-names-no-request'].includes(
            f.rule,
          ),
        ),
      ).toEqual([]);
    });
  });

  it('throws for a missing directory or a tree that is not a GitOps tree', async () => {
    const missing = await validateGitOpsTree(
      join(tmpdir(), 'does-not-exist-gpu-gitops'),
    ).catch(e => e);
    expect(isGpuInputError(missing) && missing.issues[0].rule).toBe(
      'not-found',
    );
    const dir = await fs.mkdtemp(join(tmpdir(), 'gpu-not-gitops-'));
    dirs.push(dir);
    await fs.writeFile(join(dir, 'README.md'), 'hello\n');
    const notGitOps = await validateGitOpsTree(dir).catch(e => e);
    expect(isGpuInputError(notGitOps) && notGitOps.issues[0].rule).toBe(
      'not-gitops-tree',
    );
  });
});
