import path from 'node:path';
import {
  createBareRemote,
  type BareRemote,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, requestYaml, runIn } from './__testUtils__/runInTemp';
import { EMPTY_KUSTOMIZATION } from './__testUtils__/symlinkRepo';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

describe('--repo as a relative local path (README: "a local path")', () => {
  let remote: BareRemote;
  afterEach(() => remote.cleanup());

  // Every command that takes --repo reads it through readRepositoryOptions;
  // `pr` and `update` stand for them (release and import need a merged
  // request or a cluster's pools first).
  it('is resolved against the working directory of the command', async () => {
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    const dir = makeWorkdir({
      'req.yaml': requestYaml(
        'model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 8',
      ),
    });
    // Relative to `dir`, which is not the process's working directory.
    const relative = path.relative(dir, remote.url);
    expect(path.isAbsolute(relative)).toBe(false);
    const cache = ['--cache-dir', path.join(dir, 'cache')];

    const pr = await runIn(dir, [
      'pr',
      '--request',
      'req.yaml',
      '--repo',
      relative,
      ...cache,
    ]);
    // The whole run, so that a failure shows git's words.
    expect(pr).toMatchObject({ code: 0 });
    expect(
      await remote.readFile(
        'gpu/ml-llm-inference',
        'requests/ml/llm-inference.yaml',
      ),
    ).toContain('name: llm-inference');

    const update = await runIn(dir, ['update', '--repo', relative, ...cache]);
    expect(update).toMatchObject({ code: 0 });
  });
});
