import { mkdirSync, promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '@gpu-gitops/cli';
import { kustomizeBuild } from '@gpu-gitops/plugin-gpu-node';
import { git } from './gitSync';
import { formatMs, percentile, report } from './stats';

const FILES = 20_000;
const COMMITS = 5_000;
const ROUNDS = 5;

/**
 * A big GitOps repository made with `git fast-import` (no work tree): FILES
 * files (platform values, many apps, the GPU folder) over COMMITS commits.
 */
export function createBigRepository(root: string): string {
  const bare = path.join(root, 'gitops.git');
  git(root, ['init', '--bare', '--quiet', '--initial-branch=main', bare]);
  git(bare, ['config', 'uploadpack.allowFilter', 'true']);
  const out: string[] = [];
  const file = (p: string, content: string) =>
    out.push(
      `M 100644 inline ${p}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  const commit = (n: number, message: string) =>
    out.push(
      'commit refs/heads/main',
      `committer Bench <bench@example.invalid> ${1_700_000_000 + n} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
    );
  commit(0, 'initial platform layout');
  const apps = 2_000;
  for (let i = 0; i < FILES - apps - 1; i++) {
    file(
      `platform/team-${i % 200}/svc-${i}/values.yaml`,
      `# ${i}\nreplicas: ${i % 7}\nimage: registry.example/svc-${i}:1.${i % 50}\n`,
    );
  }
  for (let i = 0; i < apps; i++) {
    file(
      `apps/ns-${i % 40}/app-${i}/deployment.yaml`,
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${i}\n  namespace: ns-${i % 40}\nspec:\n  replicas: 1\n  selector: { matchLabels: { app: app-${i} } }\n  template:\n    metadata: { labels: { app: app-${i} } }\n    spec:\n      containers: [{ name: app, image: registry.example/app-${i}:1 }]\n`,
    );
  }
  file(
    'clusters/prod/gpu/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
  );
  for (let n = 1; n < COMMITS; n++) {
    commit(n, `bump svc-${n}`);
    const i = n % (FILES - apps - 1);
    file(
      `platform/team-${i % 200}/svc-${i}/values.yaml`,
      `# ${i}\nreplicas: ${n % 7}\nrevision: ${n}\n`,
    );
  }
  git(bare, ['fast-import', '--quiet'], `${out.join('\n')}\n`);
  return bare;
}

function requestYaml(name: string, i: number): string {
  return `kind: GpuRequest
metadata: { name: ${name}, namespace: ml }
spec:
  owner: group:default/ml-platform
  gpu: { model: t4, sharing: time-slicing, replicas: ${1 + (i % 4)}, vramGiB: 4 }
  workload: { image: ghcr.io/acme/llm:1.2 }
`;
}

/**
 * The plain-git floor for the same change: shallow, single-branch, blob-less
 * sparse clone of main, write the very files the pr command wrote, commit,
 * push. Nothing a publisher could skip.
 */
function plainGitFloor(
  root: string,
  bare: string,
  files: Record<string, string>,
  branch: string,
): void {
  const dir = path.join(root, `floor-${branch.replace(/\W/g, '-')}`);
  git(root, [
    'clone',
    '--quiet',
    '--depth',
    '1',
    '--single-branch',
    '--branch',
    'main',
    '--filter=blob:none',
    '--sparse',
    `file://${bare}`,
    dir,
  ]);
  const folders = [
    ...new Set(Object.keys(files).map(f => path.posix.dirname(f))),
  ];
  git(dir, ['sparse-checkout', 'set', ...folders]);
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  git(dir, ['add', '--', ...Object.keys(files)]);
  git(dir, [
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@example.invalid',
    'commit',
    '--quiet',
    '-m',
    'GPU request',
  ]);
  git(dir, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
}

interface StageTiming {
  stage: string;
  ms: number;
}

/** Where a run's time went, by step; `pr --json` reports each stage it timed. */
const BREAKDOWN: [string, (stage: string) => boolean][] = [
  ['clone / fetch', s => s === 'Fetch base'],
  ['reading', s => s.startsWith('Read ')],
  ['planning', s => s === 'Plan'],
  [
    'rendering',
    s => s === 'Build manifests' || s === 'Apply plan to the repository',
  ],
  // Its two steps apart: applying the plan reads the checkout (the workload's
  // folder, the kustomizations), building the manifests does not.
  ['rendering: build manifests', s => s === 'Build manifests'],
  ['rendering: apply plan', s => s === 'Apply plan to the repository'],
  ['kustomization graph', s => s === 'kustomization graph'],
  ['kustomize builds before (sum)', s => / \(before\)$/.test(s)],
  ['kustomize builds after (sum)', s => / \(after\)$/.test(s)],
  ['verify (all of it, wall)', s => s === 'Verify with kustomize'],
  ['commit', s => s === 'Commit'],
  ['push', s => s === 'Push'],
  ['pull request', s => s.startsWith('Open or update')],
];

/** The steps a run's total is the sum of (the rest is process and input work). */
const TOP_LEVEL = [
  'clone / fetch',
  'reading',
  'planning',
  'rendering',
  'verify (all of it, wall)',
  'commit',
  'push',
  'pull request',
];

function breakdown(stages: StageTiming[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, matches] of BREAKDOWN) {
    out[name] = stages
      .filter(s => matches(s.stage))
      .reduce((sum, s) => sum + s.ms, 0);
  }
  return out;
}

function printBreakdown(
  label: string,
  runs: { total: number; parts: Record<string, number> }[],
): void {
  const p50 = (pick: (r: (typeof runs)[number]) => number) =>
    percentile(runs.map(pick), 50);
  console.log(`  where the time goes, ${label} (p50 of ${runs.length} runs):`);
  for (const [name] of BREAKDOWN) {
    console.log(`    ${name.padEnd(32)} ${formatMs(p50(r => r.parts[name]))}`);
  }
  const rest = p50(
    r => r.total - TOP_LEVEL.reduce((sum, name) => sum + r.parts[name], 0),
  );
  console.log(
    `    ${'rest (process, inputs, lock)'.padEnd(32)} ${formatMs(rest)}`,
  );
}

/**
 * What no `pr` can go below while it verifies with the real kustomize: one
 * `kustomize build` of the GPU root as the last run left it (its NodePool
 * makes kustomize 4.5.4 parse its whole built-in OpenAPI schema, about a
 * second of CPU, in every process), and one of a root of plain core
 * objects beside it (the process alone). Median of three each.
 */
async function kustomizeFloor(
  root: string,
  bare: string,
  branch: string,
): Promise<{ gpuRoot: number; plainRoot: number }> {
  const dir = path.join(root, 'kustomize-floor');
  mkdirSync(dir, { recursive: true });
  const gpu = 'clusters/prod/gpu';
  const files = git(bare, ['ls-tree', '-r', '--name-only', branch, '--', gpu])
    .split('\n')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(
      path.join(dir, file),
      git(bare, ['show', `${branch}:${file}`]),
    );
  }
  const plain = path.join(dir, 'plain');
  mkdirSync(plain, { recursive: true });
  writeFileSync(
    path.join(plain, 'kustomization.yaml'),
    'resources: [cm.yaml]\n',
  );
  writeFileSync(
    path.join(plain, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n',
  );
  const time = async (folder: string) => {
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await kustomizeBuild(folder);
      samples.push(performance.now() - t);
    }
    return percentile(samples, 50);
  };
  return {
    gpuRoot: await time(path.join(dir, gpu)),
    plainRoot: await time(plain),
  };
}

/**
 * `gpu-gitops pr` (in-process, cold: a fresh cache every run, as a new CI job
 * or a new backend pod pays it) against the plain-git floor, side by side on
 * the same repository, with where its time goes. Goal (issue 24): pr <=
 * 1.5 x floor, cold and warm, every verification still run.
 */
export async function benchPrCommand(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-bench-pr-'));
  try {
    const t = performance.now();
    const bare = createBigRepository(root);
    console.log(
      `\npr command vs plain git (repository: ${FILES} files, ${COMMITS} commits, built in ${formatMs(performance.now() - t)})`,
    );
    await fs.writeFile(path.join(root, 'cluster.yaml'), 'name: prod\n');
    const prSamples: number[] = [];
    const floorSamples: number[] = [];
    const warmSamples: number[] = [];
    const coldRuns: { total: number; parts: Record<string, number> }[] = [];
    const warmRuns: { total: number; parts: Record<string, number> }[] = [];
    let lastBranch = '';
    for (let i = 0; i < ROUNDS; i++) {
      await fs.writeFile(
        path.join(root, `req-${i}.yaml`),
        requestYaml(`cold-${i}`, i),
      );
      const io = {
        cwd: root,
        env: {},
        stdout: (_: string) => {},
        stderr: (_: string) => {},
      };
      let output = '';
      const t0 = performance.now();
      const code = await runCli(
        [
          'pr',
          '--request',
          `req-${i}.yaml`,
          '--repo',
          `file://${bare}`,
          '--cluster',
          'cluster.yaml',
          '--cache-dir',
          path.join(root, `cache-${i}`),
          '--json',
        ],
        {
          ...io,
          stdout: text => {
            output += text;
          },
        },
      );
      prSamples.push(performance.now() - t0);
      if (code !== 0) throw new Error(`pr exited ${code}`);
      const result = JSON.parse(output);
      lastBranch = result.branch;
      coldRuns.push({
        total: prSamples[prSamples.length - 1],
        parts: breakdown(result.stages),
      });

      // The same files, read back from the pushed branch (not timed).
      const files: Record<string, string> = {};
      for (const file of result.files as string[]) {
        files[file] = git(bare, ['show', `${result.branch}:${file}`]);
      }
      const t1 = performance.now();
      plainGitFloor(root, bare, files, `floor/${i}`);
      floorSamples.push(performance.now() - t1);

      // Warm: the same cache again for another new request (fetch, not clone).
      await fs.writeFile(
        path.join(root, `req-${i}.yaml`),
        requestYaml(`warm-${i}`, i + 1),
      );
      let warmOutput = '';
      const t2 = performance.now();
      const warmCode = await runCli(
        [
          'pr',
          '--request',
          `req-${i}.yaml`,
          '--repo',
          `file://${bare}`,
          '--cluster',
          'cluster.yaml',
          '--cache-dir',
          path.join(root, `cache-${i}`),
          '--json',
        ],
        {
          ...io,
          stdout: text => {
            warmOutput += text;
          },
        },
      );
      warmSamples.push(performance.now() - t2);
      if (warmCode !== 0) throw new Error(`pr (warm) exited ${warmCode}`);
      warmRuns.push({
        total: warmSamples[warmSamples.length - 1],
        parts: breakdown(JSON.parse(warmOutput).stages),
      });
    }
    const pr = percentile(prSamples, 50);
    const floor = percentile(floorSamples, 50);
    console.log(
      `  pr (cold) p50 ${formatMs(pr)}, plain-git floor p50 ${formatMs(floor)}, pr (warm cache) p50 ${formatMs(percentile(warmSamples, 50))}` +
        ` (load average ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} cores: on a shared machine the ratios move with it)`,
    );
    printBreakdown('cold', coldRuns);
    printBreakdown('warm', warmRuns);
    const kustomize = await kustomizeFloor(root, bare, lastBranch);
    console.log(
      `  below which no verified pr goes: one kustomize build of the changed GPU root ${formatMs(kustomize.gpuRoot)} ` +
        `(of a root of one ConfigMap: ${formatMs(kustomize.plainRoot)}), the floor plus it ${((floor + kustomize.gpuRoot) / floor).toFixed(2)} x floor`,
    );
    report(
      'pr vs floor',
      `${(pr / floor).toFixed(2)} x floor (cold)`,
      pr / floor,
      {
        max: 1.5,
        unit: 'x',
      },
    );
    report(
      'pr vs floor',
      `${(percentile(warmSamples, 50) / floor).toFixed(2)} x floor (warm)`,
      percentile(warmSamples, 50) / floor,
      {
        max: 1.5,
        unit: 'x',
      },
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
