import { MemoryRepoTree } from '../repo/tree';
import { patchFixture } from './__fixtures__/plans';
import {
  jobTemplateWarning,
  withJobTemplateWarning,
} from './immutableJobTemplate';

const argoApplication = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata: { name: batch, namespace: argocd }',
  'spec:',
  '  source: { repoURL: https://github.com/example/gitops.git, path: apps/batch }',
  '',
].join('\n');

const fluxKustomization = [
  'apiVersion: kustomize.toolkit.fluxcd.io/v1',
  'kind: Kustomization',
  'metadata: { name: apps, namespace: flux-system }',
  'spec: { path: ./apps/batch, sourceRef: { kind: GitRepository, name: flux-system } }',
  '',
].join('\n');

const job = { kind: 'Job', namespace: 'ml', name: 'trainer' } as const;

describe('jobTemplateWarning', () => {
  it('names the Job, says why and what happens, and the step for each applier the repository declares', () => {
    const warning = jobTemplateWarning(job, ['argo', 'flux']);
    expect(warning).toContain('Job `ml/trainer` cannot take this change');
    expect(warning).toContain('pod template immutable once the Job is created');
    expect(warning).toContain('runs again from the start');
    expect(warning).toContain('`Replace=true` and `Force=true`');
    expect(warning).toContain('`kustomize.toolkit.fluxcd.io/force: enabled`');
  });

  it('without a known applier still says to delete the Job and names no tool', () => {
    const warning = jobTemplateWarning(job, []);
    expect(warning).toContain('delete the Job so the applier creates it again');
    expect(warning).not.toMatch(/Argo CD|Flux/);
  });
});

describe('withJobTemplateWarning', () => {
  const { plan } = patchFixture();

  it('adds the warning for an existing Job, naming the repository’s applier only', async () => {
    const tree = new MemoryRepoTree({ 'argocd/batch.yaml': argoApplication });
    const warned = await withJobTemplateWarning(plan, job, tree);
    expect(warned.warnings).toEqual([
      ...plan.warnings,
      jobTemplateWarning(job, ['argo']),
    ]);
    expect(warned.warnings.at(-1)).not.toContain('Flux');
  });

  it('names Flux’s step in a Flux repository', async () => {
    const tree = new MemoryRepoTree({ 'flux/apps.yaml': fluxKustomization });
    const warned = await withJobTemplateWarning(plan, job, tree);
    expect(warned.warnings.at(-1)).toBe(jobTemplateWarning(job, ['flux']));
  });

  it.each(['CronJob', 'Deployment', 'StatefulSet'] as const)(
    'leaves the plan as it is for a %s (its template may change)',
    async kind => {
      const tree = new MemoryRepoTree({ 'argocd/batch.yaml': argoApplication });
      const same = await withJobTemplateWarning(plan, { ...job, kind }, tree);
      expect(same).toBe(plan);
    },
  );
});
