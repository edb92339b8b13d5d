import { YamlFile } from './yamlFile';

/** The text a file gets after `edit`, through the YamlFile every writer uses. */
function edited(text: string, edit: (file: YamlFile) => void): string {
  const file = YamlFile.parse('f.yaml', text);
  edit(file);
  file.modified = true;
  return file.newContent() ?? text;
}

describe('an edit keeps the lines it did not change as the team wrote them', () => {
  it('an annotation added to the Karpenter blueprint’s NodePool leaves its 9-space taint list as it is', () => {
    const blueprint = [
      'apiVersion: karpenter.sh/v1',
      'kind: NodePool',
      'metadata:',
      '  name: gpu',
      'spec:',
      '  template:',
      '    spec:',
      '      taints:',
      '         - key: nvidia.com/gpu',
      '           effect: NoSchedule',
      '',
    ].join('\n');
    expect(
      edited(blueprint, file =>
        file.docs[0].setIn(['metadata', 'annotations', 'a'], 'b'),
      ),
    ).toBe(
      blueprint.replace(
        '  name: gpu\n',
        '  name: gpu\n  annotations:\n    a: b\n',
      ),
    );
  });

  it('an item added to a list written flush with its key takes that style; one removed gives the file back', () => {
    const flux = 'kind: Kustomization\nresources:\n- a.yaml\n- b.yaml\n';
    const added = edited(flux, file => {
      const seq = file.docs[0].get('resources') as { items: unknown[] };
      seq.items.push(file.docs[0].createNode('c.yaml'));
    });
    expect(added).toBe(`${flux}- c.yaml\n`);
    expect(
      edited(added, file => {
        const seq = file.docs[0].get('resources') as { items: unknown[] };
        seq.items.pop();
      }),
    ).toBe(flux);
  });

  it('keeps the untouched documents of a multi-document file and their comments', () => {
    const text = [
      '# pools of the team',
      'kind: A',
      'list:',
      '- x   # first',
      '---',
      'kind: B',
      'list: [ y ]',
      '',
    ].join('\n');
    expect(edited(text, file => file.docs[1].set('kind', 'C'))).toBe(
      text.replace('kind: B', 'kind: C'),
    );
  });

  it('writes the serializer’s text where the team’s style cannot hold the new lines', () => {
    // A new key under a map of one-space indent: the shifted line must still
    // mean what the edit means, which the result is checked for.
    const text = 'a:\n b: 1\n';
    const out = edited(text, file => file.docs[0].setIn(['a', 'c'], 2));
    expect(YamlFile.parse('f.yaml', out).values()).toEqual([
      { a: { b: 1, c: 2 } },
    ]);
  });
  it('a block put back into a file whose lists are flush with their keys is written flush too', () => {
    const cronJob = [
      'spec:',
      '  tolerations:',
      '  - key: nvidia.com/gpu',
      '    operator: Exists',
      '',
    ].join('\n');
    const affinity = {
      nodeSelectorTerms: [
        {
          matchExpressions: [
            { key: 'karpenter.k8s.aws/instance-family', operator: 'In' },
          ],
        },
      ],
    };
    expect(
      edited(cronJob, file =>
        file.docs[0].setIn(['spec', 'affinity'], affinity),
      ),
    ).toBe(
      `${cronJob}  affinity:\n    nodeSelectorTerms:\n    - matchExpressions:\n      - key: karpenter.k8s.aws/instance-family\n        operator: In\n`,
    );
  });
});
