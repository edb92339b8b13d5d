import { applyJson6902 } from './json6902';

describe('applyJson6902', () => {
  const deployment = {
    kind: 'Deployment',
    metadata: { name: 'api', annotations: { 'a/b': 'x' } },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'a' }] } } },
  };

  it('replaces, adds and removes fields and list items, leaving the input as it was', () => {
    const before = structuredClone(deployment);
    const after = applyJson6902(deployment, [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      {
        op: 'add',
        path: '/spec/template/spec/containers/-',
        value: { name: 'b' },
      },
      {
        op: 'add',
        path: '/spec/template/spec/containers/0',
        value: { name: 'z' },
      },
      { op: 'remove', path: '/metadata/annotations/a~1b' },
    ]);
    expect(after).toEqual({
      kind: 'Deployment',
      metadata: { name: 'api', annotations: {} },
      spec: {
        replicas: 3,
        template: {
          spec: { containers: [{ name: 'z' }, { name: 'a' }, { name: 'b' }] },
        },
      },
    });
    expect(deployment).toEqual(before);
  });

  it('copies and moves, and stops at the first operation that cannot apply (kustomize refuses the build)', () => {
    expect(
      applyJson6902(deployment, [
        { op: 'copy', from: '/spec/replicas', path: '/spec/minReadySeconds' },
        { op: 'move', from: '/spec/replicas', path: '/spec/paused' },
      ]),
    ).toMatchObject({ spec: { minReadySeconds: 1, paused: 1 } });
    expect(
      applyJson6902(deployment, [
        { op: 'replace', path: '/spec/replicas', value: 4 },
        { op: 'test', path: '/spec/replicas', value: 9 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
      ]),
    ).toMatchObject({ spec: { replicas: 4 } });
    // replace needs the field; add under a missing parent fails.
    expect(
      applyJson6902(deployment, [
        { op: 'replace', path: '/spec/paused', value: true },
      ]),
    ).toEqual(deployment);
    expect(
      applyJson6902(deployment, [
        { op: 'add', path: '/spec/strategy/type', value: 'Recreate' },
      ]),
    ).toEqual(deployment);
  });
});
