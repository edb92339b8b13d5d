import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readPlainYamlDocuments } from './readPlainYaml';

const FIXTURE_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-repo',
);

/** What `yaml` reads: one value per document, or undefined on a syntax error. */
function byYaml(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return [];
  if (docs.some(d => d.errors.length > 0)) return undefined;
  return docs.map(d => d.toJS({ maxAliasCount: 100 }));
}

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await yamlFiles(full)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe('readPlainYamlDocuments', () => {
  it('reads the fixture GitOps repository as yaml does, nearly all of it itself', async () => {
    const files = await yamlFiles(FIXTURE_REPO);
    expect(files.length).toBeGreaterThan(10);
    let fast = 0;
    for (const file of files) {
      const text = await fs.readFile(file, 'utf8');
      const docs = readPlainYamlDocuments(text);
      if (docs) fast++;
      expect({ file, docs: docs ?? byYaml(text) }).toEqual({
        file,
        docs: byYaml(text),
      });
    }
    expect(fast / files.length).toBeGreaterThan(0.9);
  });

  it('agrees with yaml on every short scalar, wherever it stands, or leaves it to yaml', () => {
    const chars = '01.-+_eEx:oIn #';
    const tokens: string[] = [];
    const grow = (prefix: string, depth: number) => {
      if (depth === 0) return;
      for (const c of chars) {
        tokens.push(prefix + c);
        grow(prefix + c, depth - 1);
      }
    };
    grow('', 3);
    tokens.push(
      '.inf',
      '-.inf',
      '.NaN',
      'Null',
      'null',
      'NULL',
      '~',
      'TRUE',
      'False',
      '0x1F',
      '0o17',
      '1e3',
      '1.5e-3',
    );
    const present = (docs: unknown[]) =>
      docs
        .map((value, index) => [index, value])
        .filter(([, value]) => value !== null && value !== undefined);
    const disagreements: string[] = [];
    for (const token of tokens) {
      for (const text of [
        `a: ${token}\n`,
        `- ${token}\n`,
        `${token}: 1\n`,
        `k:\n  ${token}\n`,
        `x: 1\n---\n${token}\n---\ny: 2\n`,
      ]) {
        const fast = readPlainYamlDocuments(text);
        if (!fast) continue;
        const slow = byYaml(text);
        if (
          !slow ||
          JSON.stringify(present(fast)) !== JSON.stringify(present(slow))
        ) {
          disagreements.push(JSON.stringify(text));
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['a lone separator', '---\n'],
    ['empty documents around one', '---\n---\na: 1\n---\n'],
    ['a comment then a document', '# head\n---\nkind: X\n'],
    [
      'numbers and words of the core schema',
      'a: 0o17\nb: 017\nc: 1_000\nd: 0x1F\ne: .inf\nf: -0.5\ng: 1e3\nh: 12:30\n',
    ],
    [
      'words YAML 1.1 took for booleans, dates',
      'a: yes\nb: No\nc: on\nd: 2024-01-01\ne: ~\nf: Null\ng: TRUE\n',
    ],
    [
      'quoted and block strings',
      "a: \"x: y\"\nb: 'it''s'\nc: |\n  one\n  two\nd: >-\n  folded\n  text\n",
    ],
    ['flow collections', 'a: { b: [1, 2, { c: d }] }\ne: []\nf: {}\n'],
    [
      'quantities and labels',
      'limits:\n  nvidia.com/gpu: "3"\n  memory: 16Gi\n  cpu: 500m\n',
    ],
  ])('%s: the same values as yaml', (_, text) => {
    const fast = readPlainYamlDocuments(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(byYaml(text));
  });

  it.each([
    ['anchors and aliases', 'a: &x { b: 1 }\nc: *x\n'],
    ['an alias bomb', 'a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n'],
    ['tags', 'a: !!binary aGk=\nb: !custom x\n'],
    ['a complex key', '? [a, b]\n: 1\n'],
    ['a glob that only looks like an alias', 'host: "*.example.com"\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a signed hex number', 'a: -0x1F\n'],
    ['a signed leading-dot number', 'a: -.5\n'],
    ['content on the document marker line', '--- a: 1\n'],
    ['null as a key', 'labels:\n  ~: x\n'],
    ['a syntax error', 'a: [1, 2\n'],
    ['a tab indent', 'a:\n\tb: 1\n'],
  ])('%s: left to yaml', (_, text) => {
    expect(readPlainYamlDocuments(text)).toBeUndefined();
  });
});
