/**
 * docs/worked-examples.md runs as it reads: for each target's section, the
 * files it shows (cluster.yaml, req.yaml, catalog.yaml) are written into a
 * temp folder, the `sh` block's `npx gpu-gitops` commands run there as the
 * real CLI process (the request planned, rendered and built with the real
 * kustomize before anything is written), and what the section says they
 * write must be what they write: the bootstrap's file list, `render`'s
 * output line for line, and each key-line block's lines, in order, in the
 * file it names.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gpuGitops, removeTempDirs, tempDir } from '../gitopsFixtures';

// A hang guard: each example bootstraps and renders with the real kustomize.
jest.setTimeout(300_000);

afterAll(removeTempDirs);

const DOC = path.resolve(__dirname, '../../../docs/worked-examples.md');

/** The targets issue 25 asks a worked example for, in the document's order. */
const TARGETS = [
  'Karpenter on AWS (EKS)',
  'Karpenter on Azure (AKS)',
  'Cluster API (CAPA on AWS)',
  'Static nodes (NFD)',
  'EKS Auto Mode',
  'GKE',
  'DRA that autoscales on AWS',
  'Kueue queues',
];

interface Block {
  lang: string;
  /** The first line's `# name`, when it has one. */
  name?: string;
  lines: string[];
}

interface Example {
  title: string;
  text: string;
  blocks: Block[];
}

function blocksOf(text: string): Block[] {
  const fence = /^```(\w+)\n([\s\S]*?)^```$/gm;
  return [...text.matchAll(fence)].map(([, lang, body]) => {
    const lines = body.replace(/\n$/, '').split('\n');
    const named = /^# (\S+.*)$/.exec(lines[0]);
    return named
      ? { lang, name: named[1], lines: lines.slice(1) }
      : { lang, lines };
  });
}

function examples(): Example[] {
  const doc = readFileSync(DOC, 'utf8');
  return doc
    .split(/^## /m)
    .slice(1)
    .map(section => {
      const [title, ...rest] = section.split('\n');
      const text = rest.join('\n');
      return { title, text, blocks: blocksOf(text) };
    });
}

const named = (example: Example, name: string) =>
  example.blocks.find(b => b.name === name);

/** Whether `want` appear among `lines` in this order (each compared trimmed); the first that does not. */
function firstMissing(lines: string[], want: string[]): string | undefined {
  const trimmed = lines.map(l => l.trim());
  let at = 0;
  for (const line of want) {
    const found = trimmed.indexOf(line.trim(), at);
    if (found < 0) return line;
    at = found + 1;
  }
  return undefined;
}

/** Runs the section's commands on its files; the outputs by command. */
function run(example: Example) {
  const dir = tempDir('gpu-worked-example-');
  for (const name of ['cluster.yaml', 'req.yaml', 'catalog.yaml']) {
    const block = named(example, name);
    if (block)
      writeFileSync(path.join(dir, name), `${block.lines.join('\n')}\n`);
  }
  mkdirSync(path.join(dir, 'gitops'));
  const commands = example.blocks.filter(b => b.lang === 'sh');
  expect(commands).toHaveLength(1);
  const outputs = new Map<string, string>();
  for (const line of commands[0].lines) {
    const args = line.split(/\s+/);
    expect(args.slice(0, 2)).toEqual(['npx', 'gpu-gitops']);
    const result = gpuGitops(dir, args.slice(2));
    expect({ line, code: result.code, stderr: result.stderr }).toEqual({
      line,
      code: 0,
      stderr: expect.any(String),
    });
    outputs.set(args[2], result.stdout);
  }
  return { repo: path.join(dir, 'gitops'), outputs };
}

describe('docs/worked-examples.md', () => {
  it('has one example per target, each with the versions it was checked against', () => {
    const all = examples();
    expect(all.map(e => e.title)).toEqual(TARGETS);
    for (const example of all) {
      expect({
        title: example.title,
        checked: /^Checked against: .*\*\*/m.test(example.text),
      }).toEqual({ title: example.title, checked: true });
    }
  });

  for (const example of examples()) {
    it(`${example.title}: the commands write what the example shows`, () => {
      const { repo, outputs } = run(example);
      const written = (outputs.get('bootstrap') ?? '')
        .split('\n')
        .find(l => l.startsWith('written: '));
      expect(written?.slice('written: '.length).split(', ')).toEqual(
        named(example, 'bootstrap writes')?.lines,
      );
      expect(outputs.get('render')?.trimEnd().split('\n')).toEqual(
        named(example, 'render prints')?.lines,
      );
      const keyBlocks = example.blocks.filter(
        b => b.lang === 'text' && b.name?.includes('/'),
      );
      expect(keyBlocks.length).toBeGreaterThan(0);
      for (const block of keyBlocks) {
        const file = readFileSync(path.join(repo, block.name!), 'utf8');
        expect({
          file: block.name,
          missing: firstMissing(file.split('\n'), block.lines),
        }).toEqual({ file: block.name, missing: undefined });
      }
    });
  }
});
