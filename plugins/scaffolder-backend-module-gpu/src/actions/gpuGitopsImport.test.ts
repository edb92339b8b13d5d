import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { legacyKarpenterRepoFiles } from '@gpu-gitops/plugin-gpu-node/testUtils';
import { parseAllDocuments } from 'yaml';
import {
  createFixtureGitopsRepoWith,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { asRefusal } from './refusals';
import { createGpuGitopsImportAction } from './gpuGitopsImport';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and the real kustomize on a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

const OWNER = 'group:default/ml-platform';

/** A remote holding the Karpenter v0.31 setup of cluster `legacy`. */
function legacyRepo(): Promise<FixtureRepo> {
  return createFixtureGitopsRepoWith(legacyKarpenterRepoFiles());
}

describe('gpu:gitops:import', () => {
  let repo: FixtureRepo;
  beforeEach(async () => {
    repo = await legacyRepo();
  });
  afterEach(() => repo.cleanup());

  const services = () =>
    testServices(repo, {
      clusters: { default: 'legacy', profiles: { legacy: {}, dev: {} } },
    });

  it('dry run reports and pushes nothing; then opens the import pull request with the report, its link and its data', async () => {
    const action = createGpuGitopsImportAction(services());
    const input = { cluster: 'legacy', owner: OWNER };

    const dryRun = { ...createMockActionContext({ input }), isDryRun: true };
    await action.handler(dryRun);
    const planned = outputsOf(dryRun);
    expect(planned.pullRequestUrl).toBe('');
    expect(planned.diff).toContain('+++ b/requests/ml/chat.yaml');
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);

    const ctx = createMockActionContext({ input });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.branchName).toBe('gpu/import-legacy');
    expect(out.changed).toBe(true);
    expect(out.pullRequestUrl).toBe('/gpu/pull-requests/import-legacy');
    expect((await repo.refs())['refs/heads/gpu/import-legacy']).toBe(
      out.commit,
    );
    expect(out.body).toBe(planned.body);
    expect(out.body).toContain(
      '| `gpu-t4` | `clusters/legacy/karpenter/provisioners.yaml` | `t4` | time-slicing, 4 slices per GPU | `nvidia.com/gpu.shared` | ml/chat=3 |',
    );
    expect(out.report.records).toEqual([
      expect.objectContaining({ id: 'ml/chat', pool: 'gpu-t4' }),
      expect.objectContaining({ id: 'ml/embeddings', pool: 'gpu-a100-mig' }),
    ]);
    expect(out.files).toEqual(planned.files);
    const pools = parseAllDocuments(
      (await repo.show(
        out.branchName,
        'clusters/legacy/karpenter/provisioners.yaml',
      ))!,
    ).map(d => d.toJS());
    expect(pools.map(p => p.apiVersion)).toEqual([
      'karpenter.sh/v1',
      'karpenter.sh/v1',
    ]);
  });

  it('refuses a bad owner, an unknown cluster or a cluster with nothing to import, with the reason and no stack trace', async () => {
    const action = createGpuGitopsImportAction(services());
    const refusal = (input: { cluster: string; owner: string }) =>
      action.handler(createMockActionContext({ input })).then(
        () => undefined,
        e => e,
      );
    const cases: [{ cluster: string; owner: string }, RegExp][] = [
      [
        { cluster: 'legacy', owner: 'ml-platform' },
        /^The import was refused:\ninput "owner": .*got "ml-platform" \[entity-ref\]$/,
      ],
      [
        { cluster: 'nowhere', owner: OWNER },
        /^input "cluster": unknown cluster "nowhere"; configured clusters: dev, legacy \[unknown-cluster\]$/,
      ],
      [
        { cluster: 'dev', owner: OWNER },
        /^The import was refused:\ninput "cluster": the cluster folder clusters\/dev\/ .* \[cluster-folder-empty\]$/,
      ],
    ];
    for (const [input, message] of cases) {
      const error = await refusal(input);
      expect(error?.name).toBe('InputError');
      expect(error.message).toMatch(message);
      // The task log shows the stack: a refusal's is its reason alone.
      expect(error.stack).toBe(error.message);
      expect(asRefusal(error)).toBe(error);
    }
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });
});
