/**
 * A platform team's round on a Data on EKS repository
 * (`test/fixtures/data-on-eks-gpu-repo`, origins in its README): one
 * untainted Karpenter NodePool `gpu` whose families launch three GPU models
 * (A10G, L4, L40S), NVIDIA's standalone device plugin 0.18.0 from an Argo CD
 * Application with no config (every GPU whole), and workloads that choose
 * their nodes themselves — a Deployment selecting the pool by name and
 * requiring `g6e` instance types, a Job selecting a template label and
 * tolerating a taint the pool does not set. Validate on the untouched
 * repository, import, bootstrap, then requests in every sharing mode and
 * their releases; every request's pods land on the pool the plan chose and
 * on no other, and what the device plugin cannot serve is refused.
 */
import { parseAllDocuments } from 'yaml';
import { escapeRegExp } from '../../escapeRegExp';
import { renderPullRequest } from '../../pr/renderPullRequest';
import { renderReleasePullRequest } from '../../pr/renderReleasePullRequest';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  expectCleanRound,
  expectOneIssue,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  shapeRequest,
  expectOnlyChanged,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/data-on-eks/karpenter/nodepool-gpu-g6.yaml';
const PLUGIN_FILE =
  'clusters/data-on-eks/nvidia-device-plugin/nvidia-device-plugin.yaml';

const cluster = karpenterAwsShapeCluster('data-on-eks', 'gpu');

/** A warning's words as a pattern (a regular expression as it is). */
const asPattern = (words: string | RegExp) =>
  typeof words === 'string' ? new RegExp(escapeRegExp(words)) : words;

const DEEPSEEK = { existing: { kind: 'Deployment', name: 'deepseek-r1-8b' } };
const RAPIDS = { existing: { kind: 'Job', name: 'spark-rapids-executor' } };

describe('the Data on EKS repository: one untainted NodePool of three GPU models, NVIDIA’s standalone device plugin', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository('data-on-eks-gpu-repo', 'gpu-shape-doeks-', checkout => {
    ({ tree, original } = checkout);
  });

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import adopts the pool with no model, its nvidia.com/gpu limit as floor, and records none of its workloads, saying why', async () => {
    const imported = await importShape(tree, cluster);
    expect(imported.changeSet.changes.map(c => c.path)).toEqual([POOL_FILE]);
    const [pool] = parseAllDocuments((await tree.readFile(POOL_FILE))!).map(
      doc => doc.toJS(),
    );
    expect(pool.metadata.annotations).toEqual({
      'gpu.backstage.io/requests': '',
      'gpu.backstage.io/sharing-mode': 'exclusive',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
      'gpu.backstage.io/limit-floor': '8',
    });
    const unrecorded = imported.findings.filter(
      f => f.kind === 'not-understood',
    );
    expect(unrecorded.map(f => f.path).sort()).toEqual([
      'apps/ml/deepseek/deployment.yaml',
      'apps/ml/rapids/job.yaml',
    ]);
    for (const finding of unrecorded) {
      expect(finding.message).toContain(
        'pool gpu launches GPUs of 3 models (a10g, l4, l40s)',
      );
    }
  });

  it('validate finds nothing wrong once imported, and the import gave back nothing else', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    await expectOnlyChanged(tree, original, [POOL_FILE]);
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;
    let notes: string[];
    beforeAll(async () => {
      const bootstrap = await bootstrapShape(tree, cluster);
      notes = bootstrap.changeSet.notes ?? [];
      bootstrapped = bootstrap.bootstrapped;
    });

    it('validate finds nothing wrong once bootstrapped', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    });

    it('the bootstrap keeps the team’s device plugin and says which sharing modes it cannot serve', () => {
      expect(notes).toContainEqual(
        expect.stringContaining(
          `The GPU nodes run their own device plugin: the \`nvidia-device-plugin\` Helm chart installed by Argo CD Application \`argocd/nvidia-device-plugin\` (\`spec.source\`) in \`${PLUGIN_FILE}\``,
        ),
      );
      const refused = notes.flatMap(
        note => /^Requests for (\S+) are refused/.exec(note)?.[1] ?? [],
      );
      expect(refused).toEqual(['time-slicing', 'mps', 'mig']);
    });

    it.each([
      [
        'the Deployment on the model its g6e affinity asks for',
        'deepseek-r1-8b',
        DEEPSEEK,
        { model: 'l40s', sharing: 'exclusive', replicas: 1, vramGiB: 40 },
        [],
      ],
      [
        'the Deployment on another model: its g6e affinity goes, said why',
        'deepseek-r1-8b',
        DEEPSEEK,
        { model: 'l4', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
        [
          'nodeAffinity `node.kubernetes.io/instance-type In [g6e.2xlarge, g6e.4xlarge]` is removed for this request',
        ],
      ],
      [
        'the Job selecting the team’s template label: its selector goes, said why',
        'spark-rapids-executor',
        RAPIDS,
        { model: 'a10g', sharing: 'exclusive', replicas: 3, vramGiB: 20 },
        [
          'nodeSelector `NodeGroupType: GPU` is removed for this request',
          // The repository's one Argo CD Application installs a Helm chart and
          // applies none of its folders: no applier's own step is named.
          /spark-rapids-executor` cannot take this change of its pod template in place: .* After merging, delete the Job so the applier creates it again\. /,
        ],
      ],
      [
        'a new workload on the model the planner picks',
        'embedder',
        { image: 'ghcr.io/acme/embedder:1.0' },
        { model: 'auto', sharing: 'exclusive', replicas: 3, vramGiB: 16 },
        [],
      ],
    ])(
      'whole GPUs for %s: its pods land on the planned pool only, the tree validates clean, the PR body says each warning, and the release gives every file back',
      async (_what, name, workload, gpu, warned) => {
        const { change, release } = await expectCleanRound(
          tree,
          shapeRequest(name, { gpu, workload }),
          cluster,
          bootstrapped,
        );
        expect(change.plan.pool.name).not.toBe('gpu');
        expect(change.plan.warnings).toEqual(
          warned.map(words => expect.stringMatching(asPattern(words))),
        );
        const { body } = renderPullRequest({
          plan: change.plan,
          files: change.changeSet.changes,
        });
        for (const words of warned) expect(body).toMatch(words);
        // The release writes the Job's pod template back: the same warning.
        const released = renderReleasePullRequest({
          plan: release.plan,
          files: release.changeSet.changes,
        });
        const jobWarning =
          /Job `ml\/spark-rapids-executor` cannot take this change of its pod template in place/;
        expect(jobWarning.test(released.body)).toBe(workload === RAPIDS);
      },
    );

    it.each([
      [
        'time-slicing',
        'deepseek-r1-8b',
        DEEPSEEK,
        'l40s',
        'device-plugin-standalone',
      ],
      [
        'mps',
        'spark-rapids-executor',
        RAPIDS,
        'l4',
        'device-plugin-standalone',
      ],
      [
        'mig',
        'trainer',
        { image: 'ghcr.io/acme/trainer:1.0' },
        'a100-40gb',
        'device-plugin-mig-strategy',
      ],
    ])(
      'refuses %s — the standalone plugin, no config of its own, would give its pods whole GPUs — and writes nothing',
      async (sharing, name, workload, model, rule) => {
        const error = await refusalOf(
          tree,
          shapeRequest(name, {
            gpu: { model, sharing, replicas: 2, vramGiB: 8 },
            workload,
          }),
          cluster,
        );
        expectOneIssue(error, { path: 'spec.gpu.sharing', rule });
        expect(error.issues[0].message).toContain(PLUGIN_FILE);
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );

    it('says why MIG is refused: the plugin runs MIG strategy none, advertising a MIG-enabled GPU whole', async () => {
      const error = await refusalOf(
        tree,
        shapeRequest('trainer', {
          gpu: { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 10 },
          workload: { image: 'ghcr.io/acme/trainer:1.0' },
        }),
        cluster,
      );
      expect(error.issues[0].message).toContain(
        `whose MIG strategy is "none", not the cluster profile's "single": it advertises each MIG-enabled GPU whole as nvidia.com/gpu and none of its MIG instances`,
      );
      expect(error.issues[0].message).toContain(
        'set its Helm value migStrategy to single',
      );
    });
  });
});
