import { MemoryRepoTree } from '../repo/tree';
import { StagedTree } from './stagedTree';

describe('StagedTree.list', () => {
  const base = () =>
    new MemoryRepoTree({
      'clusters/prod/gpu/b.yaml': 'b',
      'clusters/prod/gpu/d.yaml': 'd',
      'clusters/prod/gpu/kustomization.yaml': 'k',
      'clusters/dev/gpu/a.yaml': 'a',
    });

  it('lists the base as it is when the change writes nothing under the folder', async () => {
    const staged = new StagedTree(base());
    await staged.write('clusters/dev/gpu/new.yaml', 'n');
    expect(await staged.list('clusters/prod/gpu')).toEqual([
      'clusters/prod/gpu/b.yaml',
      'clusters/prod/gpu/d.yaml',
      'clusters/prod/gpu/kustomization.yaml',
    ]);
  });

  it('adds the files the change creates in their sorted places, drops those it deletes, and lists a rewritten file once', async () => {
    const staged = new StagedTree(base());
    await staged.write('clusters/prod/gpu/c.yaml', 'c');
    await staged.write('clusters/prod/gpu/a.yaml', 'a');
    await staged.write('clusters/prod/gpu/z.yaml', 'z');
    await staged.write('clusters/prod/gpu/b.yaml', 'b2');
    await staged.remove('clusters/prod/gpu/d.yaml');
    expect(await staged.list('')).toEqual([
      'clusters/dev/gpu/a.yaml',
      'clusters/prod/gpu/a.yaml',
      'clusters/prod/gpu/b.yaml',
      'clusters/prod/gpu/c.yaml',
      'clusters/prod/gpu/kustomization.yaml',
      'clusters/prod/gpu/z.yaml',
    ]);
  });

  it('does not list a file the change creates and then deletes', async () => {
    const staged = new StagedTree(base());
    await staged.write('clusters/prod/gpu/c.yaml', 'c');
    await staged.remove('clusters/prod/gpu/c.yaml');
    expect(await staged.list('clusters/prod')).not.toContain(
      'clusters/prod/gpu/c.yaml',
    );
  });
});
