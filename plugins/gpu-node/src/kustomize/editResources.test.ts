/**
 * A team's kustomization with one entry taken out of its `resources`, every
 * other byte as the team wrote it: the inverse of `insertResource`.
 */
import { deleteResource, insertResource } from './editResources';

const TEAM = [
  '# The cluster, as the platform team applies it.',
  'apiVersion: kustomize.config.k8s.io/v1beta1',
  'kind: Kustomization',
  'resources:',
  '    - "./apps"   # quoted, indented',
  '    - infrastructure',
  'patches:',
  '  - path: patch.yaml',
  '',
].join('\n');

describe('deleteResource', () => {
  it('restores the file insertResource added an entry to, byte for byte', () => {
    const added = insertResource('k.yaml', TEAM, 'dra-driver')!;
    expect(added).not.toBe(TEAM);
    expect(deleteResource(added, 'dra-driver')).toBe(TEAM);
    expect(deleteResource(added, './dra-driver/')).toBe(TEAM);
  });

  it('takes the resources key with its last entry, as insertResource added it', () => {
    const bare =
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
    expect(deleteResource(insertResource('k.yaml', bare, 'gpu')!, 'gpu')).toBe(
      bare,
    );
  });

  it('takes a flow item and its separator out', () => {
    const flow = 'resources: [apps, gpu-operator, infra]\n';
    expect(deleteResource(flow, 'gpu-operator')).toBe(
      'resources: [apps, infra]\n',
    );
    expect(deleteResource(flow, 'apps')).toBe(
      'resources: [gpu-operator, infra]\n',
    );
    expect(deleteResource('resources: [gpu]\n', 'gpu')).toBe('resources: []\n');
  });

  it('leaves a file that does not list the entry', () => {
    expect(deleteResource(TEAM, 'gpu')).toBeUndefined();
    expect(deleteResource('resources: [\n', 'gpu')).toBeUndefined();
  });
});
