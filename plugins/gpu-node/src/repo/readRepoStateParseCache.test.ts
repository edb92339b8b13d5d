import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { STATIC_DEVICE_PLUGIN } from '../changes/bootstrap/__fixtures__/gpuStackShapes';
import { GREP_FROM_FILES } from './filesMentioning';
import { GitCheckoutTree } from './gitCheckoutTree';
import { ParseCache } from './parseCache';
import { readRepoState } from './readRepoState';
import { ReadOnceRepoTree } from './readOnceTree';
import { FsRepoTree } from './tree';
import { parseYamlDocuments } from './yamlObjects';

const gpuWorkload = (replicas: number) =>
  `apiVersion: apps/v1
kind: Deployment
metadata: { name: chat, namespace: ml }
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
        - name: chat
          image: chat:1
          resources: { limits: { nvidia.com/gpu: 1 } }
`;

/** A workload file with no GPU in it, broken: the reader must still say so. */
const BROKEN = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web\n';

describe('readRepoState over a git checkout, with a parse cache', () => {
  let dir: string;
  const commit = async (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
      { cwd: dir },
    );
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-parse-cache-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await commit({
      'clusters/prod/gpu/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
      'apps/ml/chat/deployment.yaml': gpuWorkload(1),
      'apps/web/site/deployment.yaml': BROKEN,
      'apps/web/shop/deployment.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: shop, namespace: web }\n',
    });
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('parses on the next read only the file a commit changed, and still reports a broken file without GPUs every time', async () => {
    const parsed: string[] = [];
    const parseCache = new ParseCache({
      parse: (file, text) => {
        parsed.push(file);
        return parseYamlDocuments(file, text);
      },
    });
    const read = () =>
      readRepoState(new GitCheckoutTree(dir), undefined, 'prod', {
        parseCache,
      });
    const brokenReported = {
      path: 'apps/web/site/deployment.yaml',
      reason: expect.stringMatching(/syntax error/i),
    };

    const first = await read();
    expect([...parsed].sort()).toEqual([
      'apps/ml/chat/deployment.yaml',
      'apps/web/shop/deployment.yaml',
      'apps/web/site/deployment.yaml',
    ]);
    expect(first.skipped).toEqual([brokenReported]);

    parsed.length = 0;
    const again = await read();
    expect(parsed).toEqual([]);
    expect(again.skipped).toEqual([brokenReported]);

    await commit({ 'apps/ml/chat/deployment.yaml': gpuWorkload(3) });
    const moved = await read();
    expect(parsed).toEqual(['apps/ml/chat/deployment.yaml']);
    expect(moved.skipped).toEqual([brokenReported]);
    expect(moved.workloads.map(w => [w.id, w.replicas])).toEqual([
      ['ml/chat', 3],
    ]);

    // A file changed in the work tree and not committed is read, not
    // taken for the blob its index entry names.
    parsed.length = 0;
    await fs.writeFile(
      path.join(dir, 'apps/ml/chat/deployment.yaml'),
      gpuWorkload(5),
    );
    const dirty = await read();
    expect(parsed).toEqual(['apps/ml/chat/deployment.yaml']);
    expect(dirty.workloads.map(w => w.replicas)).toEqual([5]);
  });

  it('reads nothing for a second checkout of the same files, gives every reader one frozen state, and reads again once a file is written', async () => {
    const parseCache = new ParseCache();
    const read = async (tree: GitCheckoutTree | ReadOnceRepoTree) => {
      let reads = 0;
      const readFile = tree.readFile.bind(tree);
      tree.readFile = async file => {
        reads++;
        return readFile(file);
      };
      const state = await readRepoState(tree, undefined, 'prod', {
        parseCache,
      });
      return { state, reads };
    };
    const first = await read(new GitCheckoutTree(dir));
    expect(first.reads).toBeGreaterThan(0);
    // Shared by every reader of the same files: no reader can change it.
    expect(() => first.state.workloads.pop()).toThrow(TypeError);
    expect(() => {
      first.state.workloads[0].replicas = 9;
    }).toThrow(TypeError);

    // As the request's change reads it: once per file, over the checkout.
    const second = await read(new ReadOnceRepoTree(new GitCheckoutTree(dir)));
    expect(second.reads).toBe(0);
    expect(second.state).toBe(first.state);
    expect(second.state.workloads.map(w => w.id)).toEqual(['ml/chat']);

    const written = new GitCheckoutTree(dir);
    await written.writeFile('apps/ml/chat/deployment.yaml', gpuWorkload(4));
    const third = await read(written);
    expect(third.reads).toBeGreaterThan(0);
    expect(third.state.workloads.map(w => w.replicas)).toEqual([4]);

    // Another cluster of the same files is its own state.
    const other = await readRepoState(
      new GitCheckoutTree(dir),
      undefined,
      'dev',
      {
        parseCache,
      },
    );
    expect(other.bootstrapped).toBe(false);
  });

  it('freezes the state it gives, and none of the catalog and profile the caller gave it', async () => {
    await commit({
      'infra/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
      'clusters/prod/gpu/nodepools/a10g.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: a10g }
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge] }
`,
    });
    const catalog = structuredClone(builtinCatalog);
    const profile = structuredClone(resolveClusterProfile({ name: 'prod' }));
    const frozenWithin = (value: unknown): number => {
      if (typeof value !== 'object' || value === null) return 0;
      return (
        (Object.isFrozen(value) ? 1 : 0) +
        Object.values(value).reduce<number>(
          (sum, child) => sum + frozenWithin(child),
          0,
        )
      );
    };
    const state = await readRepoState(
      new GitCheckoutTree(dir),
      undefined,
      'prod',
      {
        catalog,
        profile,
        parseCache: new ParseCache(),
      },
    );
    expect(state.pools.map(p => p.name)).toEqual(['a10g']);
    expect(state.gpuStack?.devicePlugin?.kind).toBe('standalone');
    expect(Object.isFrozen(state.pools[0])).toBe(true);
    expect(Object.isFrozen(state.gpuStack)).toBe(true);
    expect(frozenWithin(catalog)).toBe(0);
    expect(frozenWithin(profile)).toBe(0);
  });

  it("takes the deployed replicas from the cache's parse too: a re-render parses no workload file again", async () => {
    // A parser whose values differ from the text's: the replicas can only
    // come from it if the replicas reader takes the cache's documents.
    const parseCache = new ParseCache({
      parse: (file, text) =>
        parseYamlDocuments(file, text.replace('replicas: 1', 'replicas: 7')),
    });
    const state = await readRepoState(
      new GitCheckoutTree(dir),
      undefined,
      'prod',
      {
        parseCache,
      },
    );
    expect(state.workloads.map(w => [w.id, w.replicas])).toEqual([
      ['ml/chat', 7],
    ]);
  });

  it('reads on a re-render no file of a workload folder the commit left as it was, and still gives each workload its deployed replicas', async () => {
    // Workloads whose stored requests name the cluster: no other reader
    // looks at their folders (no kustomization chain, no applier, to follow).
    const recorded = (name: string, replicas: number) => ({
      [`apps/ml/${name}/deployment.yaml`]: gpuWorkload(replicas)
        .replace(/chat/g, name)
        .replace(
          '  template:\n',
          `  template:\n    metadata: { annotations: { gpu.backstage.io/request: ml/${name} } }\n`,
        ),
      [`requests/ml/${name}.yaml`]: 'spec: { cluster: prod }\n',
    });
    await commit({
      ...recorded('chat', 1),
      ...recorded('tts', 2),
      // The folder's kustomization deploys chat with 4.
      'apps/ml/chat/kustomization.yaml':
        'resources: [deployment.yaml]\nreplicas: [{ name: chat, count: 4 }]\n',
    });
    const parseCache = new ParseCache();
    const read: string[] = [];
    const readState = async () => {
      const checkout = new GitCheckoutTree(dir);
      const readFile = checkout.readFile.bind(checkout);
      checkout.readFile = async file => {
        read.push(file);
        return readFile(file);
      };
      const state = await readRepoState(
        new ReadOnceRepoTree(checkout),
        undefined,
        'prod',
        { parseCache },
      );
      return state.workloads.map(w => [w.id, w.replicas]);
    };
    const workloadFilesRead = () =>
      read.filter(file => file.startsWith('apps/')).sort();

    expect(await readState()).toEqual([
      ['ml/chat', 4],
      ['ml/tts', 2],
    ]);
    read.length = 0;
    expect(await readState()).toEqual([
      ['ml/chat', 4],
      ['ml/tts', 2],
    ]);
    expect(workloadFilesRead()).toEqual([]);

    await commit(recorded('tts', 3));
    read.length = 0;
    expect(await readState()).toEqual([
      ['ml/chat', 4],
      ['ml/tts', 3],
    ]);
    expect(workloadFilesRead()).toEqual(['apps/ml/tts/deployment.yaml']);
  });

  it('reads, for what runs on the GPU nodes, only the files git names mentioning it and those changed since the commit', async () => {
    const platformValues = Array.from(
      // As many as filesMentioning greps from (fewer are read and matched).
      { length: GREP_FROM_FILES },
      (_, i) => `platform/team-${i}/values.yaml`,
    );
    await commit({
      'infra/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
      ...Object.fromEntries(
        platformValues.map(file => [file, 'replicas: 2\nimage: web:1\n']),
      ),
    });
    // Changed since the commit: the index no longer tells what it holds.
    await fs.writeFile(
      path.join(dir, 'platform/team-3/values.yaml'),
      'replicas: 3\n',
    );
    const profile = resolveClusterProfile({ name: 'prod' });
    const parseCache = new ParseCache();
    const checkout = new GitCheckoutTree(dir);
    const read: string[] = [];
    const readFile = checkout.readFile.bind(checkout);
    checkout.readFile = async file => {
      read.push(file);
      return readFile(file);
    };

    const state = await readRepoState(
      new ReadOnceRepoTree(checkout),
      undefined,
      'prod',
      { profile, parseCache },
    );
    const everyFileRead = await readRepoState(
      new FsRepoTree(dir),
      undefined,
      'prod',
      { profile, parseCache: new ParseCache() },
    );

    expect(state.gpuStack?.devicePlugin?.kind).toBeDefined();
    expect(state).toEqual(everyFileRead);
    expect(read).toContain('infra/device-plugin.yaml');
    expect(read.filter(file => file.startsWith('platform/'))).toEqual([
      'platform/team-3/values.yaml',
    ]);
  });
});
