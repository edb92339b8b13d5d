/**
 * The allocation index reads the GPU stacks again only when a changed file
 * can change one: a NodePool commit (its `nodeClassRef` names
 * `kind: EC2NodeClass`) does not, a Bottlerocket node class does, and so
 * does a node class that stops being one.
 */
import { noGpuStackFiles, noteChangedFiles } from './gpuStacks';

const NODE_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu-t4}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
`;
const nodeClass = (alias: string) => `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: gpu}
spec:
  amiSelectorTerms:
    - alias: ${alias}
`;

describe('noteChangedFiles', () => {
  it('ignores NodePool commits, counts a Bottlerocket node class and its change back', () => {
    const files = noGpuStackFiles();
    const path = 'clusters/prod/gpu/nodeclass.yaml';
    const pool = (text: string) =>
      noteChangedFiles(
        files,
        new Map([['clusters/prod/gpu/nodepools/gpu-t4.yaml', text]]),
        [],
      );
    expect(pool(NODE_POOL)).toBe(false);
    expect(pool(NODE_POOL.replace('gpu-t4}', 'gpu-t4, labels: {a: b}}'))).toBe(
      false,
    );
    expect(
      noteChangedFiles(
        files,
        new Map([[path, nodeClass('bottlerocket@latest')]]),
        [],
      ),
    ).toBe(true);
    expect(
      noteChangedFiles(
        files,
        new Map([[path, nodeClass('al2023@latest')]]),
        [],
      ),
    ).toBe(true);
    expect(
      noteChangedFiles(files, new Map([[path, nodeClass('al2023@v2')]]), []),
    ).toBe(false);
  });
});
