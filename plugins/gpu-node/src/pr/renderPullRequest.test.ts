import { builtinCatalog, findModel } from '@gpu-gitops/plugin-gpu-common';
import { Redactor } from '../redact';
import { migLayoutPicture } from './migLayoutPicture';
import { renderPullRequest } from './renderPullRequest';
import {
  exclusivePlan,
  migPlan,
  mpsPlan,
  timeSlicingPlan,
} from './__testUtils__/planFixtures';

const files = [
  {
    path: 'clusters/prod/gpu/nodepools/gpu-t4-ts4.yaml',
    action: 'update' as const,
  },
  { path: 'apps/ml/llm-serve/deployment.yaml', action: 'create' as const },
];
const t4 = findModel(builtinCatalog, 't4');
const a100 = findModel(builtinCatalog, 'a100-40gb')!;

describe('renderPullRequest', () => {
  it('time-slicing: request, plan, no memory isolation and the ~38 % loss', () => {
    const { title, body, commitMessage } = renderPullRequest({
      plan: timeSlicingPlan(),
      files,
      model: t4,
    });
    // In GPU equivalents and what they are, never "3× NVIDIA Tesla T4".
    expect(title).toBe('GPU: ml/llm-serve — 0.75 GPU — 3 time-slices of a T4');
    expect(body).toContain('| Owner | `group:default/ml-platform` |');
    expect(body).toContain('| Replicas | 3 |');
    expect(body).toContain('| VRAM per replica | 3.5 GiB |');
    expect(body).toContain(
      '| Workload | new Deployment, image `ghcr.io/acme/llm:1.2.3` |',
    );
    expect(body).toContain(
      '| Instance types | `g4dn.xlarge`, `g4dn.2xlarge` |',
    );
    expect(body).toContain(
      'time-slicing, 4 replicas per GPU (config `ts-4-0a1b2c3d`)',
    );
    expect(body).toContain('| NodePool | `gpu-t4-ts4` — **reused** |');
    expect(body).toContain('| NodePool limits | `nvidia.com/gpu.shared: 8` |');
    expect(body).toContain(
      'Each replica needs 3.5 GiB; replicas **share** 3.7 GiB per GPU slot with **no guarantee**',
    );
    expect(body).toContain(
      '| Pool nodes | 1 × `g4dn.xlarge` (4 `nvidia.com/gpu.shared` per node), unchanged |',
    );
    // Attributed, marginal, and the pool's nodes split into shares + idle.
    expect(body).toContain(
      '| This request (attributed) | **$287.98/month: its share of pool gpu-t4-ts4 (3 of 4 nvidia.com/gpu.shared)** |',
    );
    expect(body).toContain(
      '| Added to the bill (marginal) | **$0.00/month: it fits capacity already paid for (1 node)** |',
    );
    expect(body).toContain(
      [
        '| `ml/chat-assistant` | 1 | $96.00 |',
        '| `ml/llm-serve` (this request) | 3 | $287.98 |',
        '| unallocated | 0 | $0.00 |',
        "| **the pool's nodes** | 4 | **$383.98** |",
      ].join('\n'),
    );
    // Why this pool, with the options weighed, outside the collapsed section.
    const why = body.slice(
      body.indexOf('### Why this plan'),
      body.indexOf('<details>'),
    );
    expect(why).toContain(
      '- **Pool: reuse pool gpu-t4-ts4** — it fits capacity already paid for: adds $0.00/month (fits its 1 node)',
    );
    expect(why).toContain(
      '  - ✗ new pool gpu-t4-ts4-2: adds $383.98/month (0 → 1 node): a pool that exists is reused first',
    );
    expect(body).toContain('**No memory isolation**');
    expect(body).toContain(
      '**~38 % throughput loss** measured when two compute-bound jobs share one GPU',
    );
    expect(body).toContain('- ⚠️ time-slicing does not isolate memory');
    expect(body).toContain('- `apps/ml/llm-serve/deployment.yaml` (create)');
    expect(body).toContain('nvidia.com/device-plugin.config=ts-4-0a1b2c3d');
    expect(body).toContain('- [ ] Merge, then let Argo CD / Flux sync');
    expect(body).not.toContain('MIG layout');
    expect(body).not.toContain('mig.config.state');
    // The reused pool's nodes move to the planned config: relabel them.
    expect(timeSlicingPlan().pool.liveConfigName).toBe('ts-4');
    expect(commitMessage).toMatch(
      /^gpu\(ml\/llm-serve\): 3x t4 time-slicing\n\n/,
    );
    expect(commitMessage).toContain('on pool gpu-t4-ts4 (reused)');
  });

  it('a reused pool whose nodes already run the planned config needs no relabel or re-partition', () => {
    const shared = timeSlicingPlan();
    shared.pool.liveConfigName = shared.sharing.deviceConfigName;
    const ts = renderPullRequest({ plan: shared, files, model: t4 }).body;
    expect(ts).toContain(
      'The nodes of `gpu-t4-ts4` keep device-plugin config `ts-4-0a1b2c3d`: nothing to relabel',
    );
    expect(ts).not.toContain('--overwrite');
    const mig = migPlan();
    mig.pool.reused = true;
    mig.pool.liveConfigName = mig.sharing.migConfigName;
    const body = renderPullRequest({ plan: mig, files, model: a100 }).body;
    expect(body).toContain(
      'keep MIG config `custom-3g.20gb-2x2g.10gb`: nothing to re-partition',
    );
    expect(body).not.toContain('kubectl drain');
  });

  it("a reused pool whose unlabelled nodes run the GPU Operator's default config is not relabelled", () => {
    const shared = timeSlicingPlan();
    shared.sharing.deviceConfigName = 'any';
    shared.sharing.onOperatorDefault = true;
    const { body } = renderPullRequest({ plan: shared, files, model: t4 });
    expect(body).toContain(
      "The nodes of `gpu-t4-ts4` run the GPU Operator's default device-plugin config `any` (they carry no `nvidia.com/device-plugin.config` label), which already gives this sharing: nothing to relabel",
    );
    expect(body).not.toContain('--overwrite');
  });

  it('a new pool on a key of a hand-written ConfigMap says the pull request leaves that ConfigMap as it is', () => {
    const shared = timeSlicingPlan();
    shared.pool.reused = false;
    shared.sharing.handWrittenConfigMap = {
      name: 'nvidia-device-plugin',
      namespace: 'kube-system',
      path: 'clusters/prod/gpu-operator/device-plugin.yaml',
    };
    const { body } = renderPullRequest({ plan: shared, files, model: t4 });
    expect(body).toContain(
      'Device-plugin config `ts-4-0a1b2c3d` is a key of the hand-written ConfigMap `kube-system/nvidia-device-plugin` (`clusters/prod/gpu-operator/device-plugin.yaml`), which this pull request leaves as it is',
    );
    expect(body).not.toContain('is in the ConfigMap after sync');
  });

  it('MPS: pinned memory per process and no fault isolation', () => {
    const { body } = renderPullRequest({ plan: mpsPlan(), files, model: t4 });
    expect(body).toContain('pinned device-memory limit of 3.7 GiB');
    expect(body).toContain('3.7 GiB pinned per client');
    expect(body).toContain('**No fault isolation**');
    expect(body).toContain('**3.7 GiB guaranteed** (25% of a GPU)');
    expect(body).not.toMatch(/\d MiB/);
    expect(body).toContain('| NodePool | `gpu-t4-mps4` — **new** |');
    expect(body).not.toContain('38 %');
  });

  it('MIG: layout picture, full isolation with ~9 % overhead, reconfiguration checklist', () => {
    const { body } = renderPullRequest({ plan: migPlan(), files, model: a100 });
    expect(body).toContain(
      'MIG profile `3g.20gb` per replica; GPU layout 1× 3g.20gb + 2× 2g.10gb',
    );
    expect(body).toContain('**Full isolation**');
    expect(body).toContain('**~9 % overhead**');
    expect(body).toContain('### MIG layout (each GPU, by memory slice)');
    expect(body).toContain(
      migLayoutPicture(a100, { '3g.20gb': 1, '2g.10gb': 2 })!,
    );
    const checklist = body.slice(body.indexOf('## Rollout checklist'));
    const order = [
      'Argo CD / Flux',
      'kubectl cordon -l karpenter.sh/nodepool=gpu-a100-40gb-mig-3g.20gb',
      'kubectl drain',
      'nvidia.com/mig.config=custom-3g.20gb-2x2g.10gb',
      'nvidia.com/mig.config.state=success',
      'kubectl uncordon',
      'Verify',
    ].map(s => checklist.indexOf(s));
    expect(order.every(i => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // 3 of the node's 8 instances; the other 5 are the pool's unallocated cost.
    expect(body).toContain(
      '| This request (attributed) | **$6,010.91/month: its share of pool gpu-a100-40gb-mig-3g.20gb (3 of 8 nvidia.com/mig-3g.20gb)** |',
    );
    expect(body).toContain(
      '| Added to the bill (marginal) | **$16,029.08/month: pool gpu-a100-40gb-mig-3g.20gb goes from 0 nodes to 1 node** |',
    );
    expect(body).toContain('| unallocated | 5 | $10,018.17 |');
    expect(body).toContain("| **the pool's nodes** | 8 | **$16,029.08** |");
  });

  it('MIG on a Cluster API or static cluster: the checklist selects the nodes by the pool label they carry', () => {
    const { body } = renderPullRequest({
      plan: migPlan(),
      files,
      model: a100,
      poolLabel: 'gpu.backstage.io/pool',
    });
    const checklist = body.slice(body.indexOf('## Rollout checklist'));
    expect(checklist).toContain(
      'kubectl cordon -l gpu.backstage.io/pool=gpu-a100-40gb-mig-3g.20gb',
    );
    expect(checklist).toContain(
      'kubectl get nodes -l gpu.backstage.io/pool=gpu-a100-40gb-mig-3g.20gb',
    );
    expect(checklist).not.toContain('karpenter.sh/nodepool');
  });

  it('exclusive: no trade-off and a patched existing workload', () => {
    const { body, title } = renderPullRequest({
      plan: exclusivePlan(),
      files,
      model: t4,
    });
    expect(title).toContain('— 6 GPUs — 6 whole T4s');
    expect(body).toContain('None: each replica owns whole GPUs');
    expect(body).toContain('exclusive, 2 whole GPU(s) per replica');
    expect(body).toContain('| Resource per replica | 2 × `nvidia.com/gpu` |');
    expect(body).toContain('patch existing StatefulSet `trainer`');
    expect(body).toContain('| Pool nodes | 2 × `g4dn.12xlarge`');
    expect(body).not.toContain('device-plugin.config');
    expect(body).not.toContain('### Warnings');
  });

  it('DRA with consumable shares: the shares a replica claims, and no memory isolation', () => {
    const plan = exclusivePlan();
    plan.sharing = { mode: 'dra', slicesPerGpu: 4 };
    plan.resourceName = 'gpu.nvidia.com';
    plan.resourcePerReplica = 1;
    plan.pool.limits = { 'nvidia.com/gpu': 2 };
    const { body } = renderPullRequest({ plan, files, model: t4 });
    expect(body).toContain(
      'Dynamic Resource Allocation (ResourceClaimTemplate), 1 of the 4 consumable shares of a GPU per replica',
    );
    expect(body).toContain('**No memory isolation**: the NVIDIA DRA driver');
    expect(body).toContain(
      "Karpenter launches this pool's nodes for pending claims",
    );
  });

  it('uses organisation templates and redacts secrets from the output', () => {
    const secret = 'ghp_supersecretvalue123';
    const plan = timeSlicingPlan();
    plan.warnings = [`token ${secret} in a warning`];
    const rendered = renderPullRequest({
      plan,
      files,
      templates: {
        title: '[{{request.namespace}}] {{request.name}} on {{plan.poolName}}',
        body: 'Cost {{cost.perMonth}} (+{{cost.marginal}}){{#each warnings}} / {{this}}{{/each}}',
        commitMessage: 'chore: {{request.name}}',
      },
      redactor: new Redactor([secret]),
    });
    expect(rendered.title).toBe('[ml] llm-serve on gpu-t4-ts4');
    expect(rendered.body).toBe(
      'Cost $287.98 (+$0.00) / token *** in a warning',
    );
    expect(rendered.commitMessage).toBe('chore: llm-serve');
  });

  it('neutralises markdown table breakers in free text', () => {
    const plan = timeSlicingPlan();
    plan.request.spec.owner = 'user:default/a|b\n<script>';
    const { body } = renderPullRequest({ plan, files });
    expect(body).toContain('| Owner | `user:default/a\\|b &lt;script&gt;` |');
  });

  it('reports a broken organisation template by name', () => {
    expect(() =>
      renderPullRequest({
        plan: timeSlicingPlan(),
        files,
        templates: { body: '{{#each}' },
      }),
    ).toThrow(/templates\.body: invalid handlebars template/);
  });
});

describe('migLayoutPicture', () => {
  it('draws instances by memory slice', () => {
    expect(migLayoutPicture(a100, { '3g.20gb': 1, '2g.10gb': 2 })).toMatch(
      /^\[(3g\.20gb *|2g\.10gb *)(\|(3g\.20gb *|2g\.10gb *)){2}\]$/,
    );
    const picture = migLayoutPicture(a100, { '3g.20gb': 1, '2g.10gb': 2 })!;
    // 3g.20gb spans 4 memory slices, each 2g.10gb spans 2.
    const cells = picture.slice(1, -1).split('|');
    const big = cells.find(c => c.startsWith('3g'))!;
    const small = cells.find(c => c.startsWith('2g'))!;
    expect(big.length + 1).toBe(2 * (small.length + 1));
  });

  it('shows unused memory slices', () => {
    const picture = migLayoutPicture(a100, { '1g.5gb': 7 })!;
    expect(picture.split('|')).toHaveLength(8);
    expect(picture).toContain('·');
    expect(picture.match(/1g\.5gb/g)).toHaveLength(7);
  });

  it('draws nothing for a model without MIG or an impossible layout', () => {
    expect(migLayoutPicture(t4!, { '1g.5gb': 1 })).toBeUndefined();
    expect(migLayoutPicture(a100, { '7g.40gb': 2 })).toBeUndefined();
  });
});
