import { removePatch } from './editPatches';
import { YamlFile } from '../changes/yamlFile';

describe('removePatch', () => {
  it('drops every entry that applies the patch file, however the path is written and whichever field lists it', () => {
    const inline = JSON.stringify(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: api }\n',
    );
    const file = YamlFile.parse(
      'apps/ml/api/kustomization.yaml',
      [
        'resources: [deployment.yaml]',
        'patchesStrategicMerge:',
        '  - ./gpu-patch.yaml',
        `  - ${inline}`,
        'patches:',
        '  - path: sub/../gpu-patch.yaml',
        '  - path: sidecar.yaml',
        '  - gpu-patch.yaml',
        'patchesJson6902:',
        '  - target: { kind: Deployment, name: api }',
        '    path: gpu-patch.yaml',
        '',
      ].join('\n'),
    );
    removePatch(file, 'gpu-patch.yaml');
    expect(file.values()[0]).toEqual({
      resources: ['deployment.yaml'],
      patchesStrategicMerge: [JSON.parse(inline)],
      patches: [{ path: 'sidecar.yaml' }],
    });
  });

  it('leaves a kustomization that does not list the file untouched', () => {
    const text = 'resources: [a.yaml]\npatches: [{ path: other.yaml }]\n';
    const file = YamlFile.parse('kustomization.yaml', text);
    removePatch(file, 'gpu-patch.yaml');
    expect(file.modified).toBe(false);
    expect(file.newContent()).toBeUndefined();
  });
});
