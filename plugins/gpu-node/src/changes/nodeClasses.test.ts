import { execFileSync } from 'node:child_process';
import { resolveLayout } from '../layout/layout';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import { FsRepoTree, type RepoTree } from '../repo/tree';
import { removeTempRepo, writeTempRepo } from './__fixtures__/gitopsRepo';
import { nodeClassesElsewhere } from './nodeClasses';
import { StagedTree } from './stagedTree';

const nodeClass = (kind: string, name: string) =>
  `apiVersion: karpenter.k8s.aws/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\nspec: {}\n`;

/** A pool names its node class, and defines none. */
const POOL = [
  'apiVersion: karpenter.sh/v1',
  'kind: NodePool',
  'metadata:',
  '  name: gpu-a10g',
  'spec:',
  '  template:',
  '    spec:',
  '      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }',
  '',
].join('\n');

const FILES = {
  'clusters/prod/karpenter/gpu-nodeclass.yaml': nodeClass(
    'EC2NodeClass',
    'gpu',
  ),
  'clusters/prod/karpenter/old-nodeclass.yaml': nodeClass(
    'EC2NodeClass',
    'old',
  ),
  // The file about to be written: its class is the writer's to keep or drop.
  'clusters/prod/gpu/nodepools/gpu-a10g.yaml': `${POOL}---\n${nodeClass(
    'EC2NodeClass',
    'rewritten',
  )}`,
  'clusters/prod/apps/web.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: web }\n',
  'clusters/prod/broken.yaml': 'kind: EC2NodeClass\nmetadata: [unclosed\n',
  // Another cluster's class is that cluster's.
  'clusters/dev/karpenter/nodeclass.yaml': nodeClass('EC2NodeClass', 'dev-gpu'),
};

describe('nodeClassesElsewhere', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map(removeTempRepo)));

  async function classesIn(tree: RepoTree) {
    const staged = new StagedTree(tree);
    await staged.write(
      'clusters/prod/gpu/nodepools/gpu-t4.yaml',
      `${POOL}---\n${nodeClass('AKSNodeClass', 'staged')}`,
    );
    await staged.remove('clusters/prod/karpenter/old-nodeclass.yaml');
    return nodeClassesElsewhere(
      staged,
      resolveLayout(undefined),
      'prod',
      'clusters/prod/gpu/nodepools/gpu-a10g.yaml',
    );
  }

  const EXPECTED = new Set(['EC2NodeClass/gpu', 'AKSNodeClass/staged']);

  it('finds the classes of the cluster’s folders as the change leaves them: written ones in, deleted ones out, the file about to be written and unparseable ones skipped', async () => {
    const dir = await writeTempRepo(FILES);
    dirs.push(dir);
    expect(await classesIn(new FsRepoTree(dir))).toEqual(EXPECTED);
  });

  it('finds the same in a git checkout, where git names the files it reads', async () => {
    const dir = await writeTempRepo(FILES);
    dirs.push(dir);
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c');
    expect(await classesIn(new GitCheckoutTree(dir))).toEqual(EXPECTED);
  });
});
