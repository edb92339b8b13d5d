/**
 * Where objects of a name are: found among the files that mention it, the
 * others of a checkout left unread.
 */
import { GREP_FROM_FILES } from '../repo/filesMentioning';
import { MemoryRepoTree } from '../repo/tree';
import { objectsNamed } from './locate';

const deployment = (name: string, namespace: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n`;

/**
 * A checkout as the publisher's clone reads: git names every unchanged
 * file by blob id and greps them (here: matched in memory); reads counted.
 */
class CountingCheckout extends MemoryRepoTree {
  readonly reads: string[] = [];

  async readFile(path: string): Promise<string | undefined> {
    this.reads.push(path);
    return super.readFile(path);
  }

  async blobIds(): Promise<ReadonlyMap<string, string>> {
    return new Map([...this.files.keys()].map(p => [p, `id-of-${p}`]));
  }

  async filesContaining(needles: readonly string[]): Promise<Set<string>> {
    const lower = needles.map(n => n.toLowerCase());
    return new Set(
      [...this.files]
        .filter(([, text]) => lower.some(n => text.toLowerCase().includes(n)))
        .map(([p]) => p),
    );
  }
}

describe('objectsNamed', () => {
  // As many workload files as a request's sparse checkout of the bench's
  // repository holds (its whole apps folder): git is asked, not each file.
  const files: Record<string, string> = {};
  for (let i = 0; i < GREP_FROM_FILES; i++) {
    files[`apps/ns-${i % 40}/app-${i}/deployment.yaml`] = deployment(
      `app-${i}`,
      `ns-${i % 40}`,
    );
  }
  files['apps/ml/taken/deployment.yaml'] = deployment('llm-serve', 'ml');
  files['apps/ml/taken/notes.yaml'] = '# llm-serve runs here\n';

  it('reads only the files of a checkout that mention the name', async () => {
    const tree = new CountingCheckout(files);
    const found = await objectsNamed(tree, 'llm-serve');
    expect(found.map(f => f.file)).toEqual(['apps/ml/taken/deployment.yaml']);
    expect(tree.reads.sort()).toEqual([
      'apps/ml/taken/deployment.yaml',
      'apps/ml/taken/notes.yaml',
    ]);
  });

  it('finds the same objects in a tree that names no blob id, reading every file', async () => {
    const tree = new MemoryRepoTree(files);
    const found = await objectsNamed(tree, 'llm-serve');
    expect(found.map(f => f.file)).toEqual(['apps/ml/taken/deployment.yaml']);
  });
});
