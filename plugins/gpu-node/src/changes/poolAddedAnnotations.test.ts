import { gpuAnnotationKeys } from '@gpu-gitops/plugin-gpu-common';
import {
  recordAddedAnnotations,
  removeAddedAnnotations,
  unclaimedAnnotations,
} from './poolAddedAnnotations';
import { YamlFile } from './yamlFile';

const keys = gpuAnnotationKeys('gpu.backstage.io');

const teamPool = `# The team's T4 pool.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: team-t4
spec:
  limits:
    nvidia.com/gpu: 2 # budget
`;

/** What a request writes on a pool it holds: the ledger and the floor. */
function claim(text: string) {
  const file = YamlFile.parse('pool.yaml', text);
  const doc = file.findObject('NodePool', 'team-t4')!;
  const absent = unclaimedAnnotations(doc, keys);
  doc.setIn(['metadata', 'annotations', keys.requests], 'ml/a=1');
  doc.setIn(['metadata', 'annotations', keys.limitFloor], '2');
  file.modified = true;
  recordAddedAnnotations(file, doc, absent, keys);
  return { file, doc, absent };
}

describe('the annotations a request adds to a pool', () => {
  it("a team's pool: what the first request added goes with the last release, byte for byte", () => {
    const { file, doc, absent } = claim(teamPool);
    expect(absent).toEqual([keys.requests, keys.limitFloor]);
    expect(doc.getIn(['metadata', 'annotations', keys.replaced])).toBe(
      `{ added: [ ${keys.requests}, ${keys.limitFloor} ] }`,
    );
    const claimed = YamlFile.parse('pool.yaml', file.newContent());
    const claimedDoc = claimed.findObject('NodePool', 'team-t4')!;
    removeAddedAnnotations(claimed, claimedDoc, keys);
    expect(claimed.newContent()).toBe(teamPool);
  });

  it('a pool the import adopted (it has a ledger): nothing is recorded, and the release keeps its annotations', () => {
    const adopted = teamPool.replace(
      '  name: team-t4\n',
      `  name: team-t4\n  annotations:\n    ${keys.requests}: ml/old=1\n    ${keys.limitFloor}: "2"\n`,
    );
    const { file, doc, absent } = claim(adopted);
    expect(absent).toEqual([]);
    expect(doc.hasIn(['metadata', 'annotations', keys.replaced])).toBe(false);
    removeAddedAnnotations(file, doc, keys);
    expect(doc.getIn(['metadata', 'annotations', keys.requests])).toBe(
      'ml/a=1',
    );
    expect(doc.getIn(['metadata', 'annotations', keys.limitFloor])).toBe('2');
  });
});
