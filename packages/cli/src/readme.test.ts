/**
 * The examples of this package's README are true: each `npx gpu-gitops`
 * line of its sh blocks runs, in the README's order, in a folder holding the
 * README's `req.yaml` and `gitops.git` (a repository whose cluster `default`
 * is bootstrapped), with a cache folder of the test's own, and succeeds.
 */
import { symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createBareRemote,
  type BareRemote,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, runIn } from './__testUtils__/runInTemp';
import { EMPTY_KUSTOMIZATION } from './__testUtils__/symlinkRepo';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const README = path.resolve(__dirname, '../README.md');

/** The fenced blocks of one language, in order. */
function blocks(markdown: string, language: string): string[] {
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm');
  return [...markdown.matchAll(fence)].map(match => match[1]);
}

/** The README's examples: every `npx gpu-gitops ...` line, as arguments. */
function examples(markdown: string): string[][] {
  return blocks(markdown, 'sh')
    .flatMap(block => block.split('\n'))
    .map(line => line.replace(/#.*$/, '').trim())
    .filter(line => line.startsWith('npx gpu-gitops '))
    .map(line => line.split(/\s+/).slice(2));
}

describe('the README of @gpu-gitops/cli', () => {
  let remote: BareRemote;
  afterAll(() => remote?.cleanup());

  it('has examples that run as written', async () => {
    const markdown = await readFile(README, 'utf8');
    const requestFile = blocks(markdown, 'yaml').find(block =>
      block.startsWith('# req.yaml\n'),
    );
    expect(requestFile).toBeDefined();
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    const dir = makeWorkdir({ 'req.yaml': requestFile! });
    symlinkSync(remote.url, path.join(dir, 'gitops.git'), 'dir');

    const runs = examples(markdown);
    expect(runs.map(args => args[0])).toEqual(
      expect.arrayContaining([
        'bootstrap',
        'plan',
        'render',
        'mig',
        'pr',
        'update',
      ]),
    );
    for (const args of runs) {
      const run = await runIn(dir, [
        ...args,
        ...(args.includes('--repo')
          ? ['--cache-dir', path.join(dir, 'cache')]
          : []),
      ]);
      expect({
        args: args.join(' '),
        code: run.code,
        stderr: run.stderr,
      }).toEqual(expect.objectContaining({ args: args.join(' '), code: 0 }));
    }
    // The pull request of the README's last pr example is on the remote.
    expect(await remote.branchSha('gpu/ml-llm-inference')).toBeDefined();
  });
});
