import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import {
  fixtures,
  gpuGitops,
  removeTempDirs,
  seedBareRepo,
  tempDir,
} from '../gitopsFixtures';

/**
 * Issue 3's acceptance, through the real `gpu-gitops` process: `pr --forge
 * local` against a bare repository seeded with a realistic GitOps layout
 * produces the branch; a second identical run reports no change; `validate`
 * accepts the merged result.
 */
const modes: Record<string, string> = {
  exclusive:
    'model: a10g\n    sharing: exclusive\n    replicas: 2\n    vramGiB: 20',
  'time-slicing':
    'model: t4\n    sharing: time-slicing\n    replicas: 6\n    vramGiB: 4',
  mps: 'model: l4\n    sharing: mps\n    replicas: 4\n    vramGiB: 5',
  mig: 'model: a100-40gb\n    sharing: mig\n    replicas: 4\n    vramGiB: 18',
  dra: 'model: l4\n    sharing: dra\n    replicas: 2\n    vramGiB: 8',
};

function requestFor(name: string, gpu: string): string {
  return `kind: GpuRequest
metadata: { name: ${name}, namespace: ml }
spec:
  owner: group:default/ml-platform
  gpu:
    ${gpu}
  workload:
    image: ghcr.io/acme/${name}:1.0
  capacityTypes: [on-demand]
`;
}

describe('gpu-gitops pr --forge local', () => {
  afterAll(removeTempDirs);

  it.each(Object.entries(modes))(
    '%s: pushes the branch, a re-run changes nothing, and the merged tree validates',
    async (mode, gpu) => {
      const root = tempDir('gpu-gitops-pr-');
      const bare = await seedBareRepo(fixtures.gitopsRepo);
      const name = `${mode}-app`;
      writeFileSync(path.join(root, 'req.yaml'), requestFor(name, gpu));
      // MPS needs a device-plugin MIG strategy other than the default "mixed".
      writeFileSync(
        path.join(root, 'cluster.yaml'),
        mode === 'mps' ? 'name: dev\nmigStrategy: single\n' : 'name: dev\n',
      );
      const args = [
        'pr',
        '--request',
        'req.yaml',
        '--repo',
        bare,
        '--cluster',
        'cluster.yaml',
        '--cache-dir',
        path.join(root, 'cache'),
        '--json',
      ];

      const first = gpuGitops(root, args);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const result = JSON.parse(first.stdout);
      expect(result.changed).toBe(true);
      expect(result.branch).toBe(`gpu/ml-${name}`);
      expect(result.url).toContain(result.branch);
      expect(result.files).toContain(`requests/ml/${name}.yaml`);
      const remote = simpleGit(bare);
      expect((await remote.revparse([result.branch])).trim()).toBe(
        result.commit,
      );

      // Merge the branch into main, as a reviewer would.
      const checkout = path.join(root, 'checkout');
      await simpleGit(root).clone(bare, checkout);
      const git = simpleGit(checkout);
      await git.addConfig('user.name', 'reviewer');
      await git.addConfig('user.email', 'reviewer@example.invalid');
      await git.merge([
        `origin/${result.branch}`,
        '--no-ff',
        '-m',
        'merge GPU request',
      ]);
      await git.push('origin', 'main');

      const again = gpuGitops(root, args);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).changed).toBe(false);

      const validate = gpuGitops(root, ['validate', checkout]);
      expect(validate.stdout).toContain('no findings');
      expect(validate.code).toBe(0);
      expect(readdirSync(path.join(checkout, 'requests/ml'))).toContain(
        `${name}.yaml`,
      );
    },
  );
});
