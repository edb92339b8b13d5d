import { gitBlobId } from '../git/blobId';
import { ParseCache, type FileParser } from './parseCache';
import { parseYamlDocuments, type SkippedFile } from './yamlObjects';

/** The real parser, counting the files it parses. */
function countingParser(): FileParser & { paths: string[] } {
  const paths: string[] = [];
  const parse: FileParser = (path, text) => {
    paths.push(path);
    return parseYamlDocuments(path, text);
  };
  return Object.assign(parse, { paths });
}

describe('ParseCache', () => {
  const text = (n: number) => `kind: ConfigMap\nmetadata: { name: c${n} }\n`;

  it('parses a content once, at whatever path it sits, and gives each path its documents', () => {
    const parse = countingParser();
    const cache = new ParseCache({ parse });
    const id = gitBlobId(text(1));
    const first = cache.documents(id, 'a/one.yaml', () => text(1), []);
    const again = cache.documents(id, 'b/copy.yaml', () => undefined, []);
    expect(parse.paths).toEqual(['a/one.yaml']);
    expect(first).toEqual([
      {
        path: 'a/one.yaml',
        index: 0,
        value: { kind: 'ConfigMap', metadata: { name: 'c1' } },
      },
    ]);
    expect(again.map(d => d.path)).toEqual(['b/copy.yaml']);
    expect(again[0].value).toBe(first[0].value);
  });

  it('reports a kept syntax error every time the content is read, at its path', () => {
    const parse = countingParser();
    const cache = new ParseCache({ parse });
    const broken = 'kind: Deployment\nmetadata: { name: web\n';
    const id = gitBlobId(broken);
    const skipped: SkippedFile[] = [];
    cache.documents(id, 'apps/web/a.yaml', () => broken, skipped);
    cache.documents(id, 'apps/web/a.yaml', () => broken, skipped);
    expect(parse.paths).toHaveLength(1);
    expect(skipped).toHaveLength(2);
    expect(skipped[1]).toEqual({
      path: 'apps/web/a.yaml',
      reason: expect.stringMatching(/syntax error/i),
    });
  });

  it('is bounded by the size of the texts it keeps, dropping the least recently used', () => {
    const parse = countingParser();
    const size = text(1).length;
    const cache = new ParseCache({ parse, maxTextSize: 3 * size });
    const read = (n: number) =>
      cache.documents(gitBlobId(text(n)), `f${n}.yaml`, () => text(n), []);
    [1, 2, 3].forEach(read);
    read(1); // used again: 2 is now the oldest
    read(4);
    expect(cache.textSize).toBe(3 * size);
    expect(cache.has(gitBlobId(text(2)))).toBe(false);
    expect([1, 3, 4].map(n => cache.has(gitBlobId(text(n))))).toEqual([
      true,
      true,
      true,
    ]);
    read(2);
    expect(parse.paths).toEqual([
      'f1.yaml',
      'f2.yaml',
      'f3.yaml',
      'f4.yaml',
      'f2.yaml',
    ]);
  });

  it('freezes what it keeps: a reader that changed a value would change it for every later pass', () => {
    const cache = new ParseCache();
    const [doc] = cache.documents(
      gitBlobId(text(1)),
      'a.yaml',
      () => text(1),
      [],
    );
    expect(() => {
      (doc.value as { metadata: { name: string } }).metadata.name = 'other';
    }).toThrow(TypeError);
  });
});
