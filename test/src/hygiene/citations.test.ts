import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import path from 'path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * Citations a reader of this repository cannot open: research notes, seed
 * material and compiled reference files that live beside the project, never in
 * it. A comment cites the upstream source (a document address, or a path in
 * the upstream repository with its version) or the project's own docs instead.
 */
const UNREADABLE_CITATIONS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'a research note',
    /\b(?:KARPENTER|NVIDIA|ARCHITECTURE|BACKSTAGE|PEERS)\.md\b|\bSTATE-\d{4}-\d{2}\.md\b/g,
  ],
  ['a section of a note, without its name', /\(§\d+(?:\.\d+)*\)/g],
  ['the shared folder', /(?:\.\.\/|\/work\/)shared\b/g],
  ['a seed', /\bseeds?[- ]\d{3}\b/gi],
  [
    'a reference file compiled outside the repository',
    /\bmig-profiles\.yaml\b|\bderived-nvidia-gpu-instance-types\.csv\b/g,
  ],
];

interface Citation {
  line: number;
  what: string;
  text: string;
}

/** Every unreadable citation in `text`, by line. */
function unreadableCitations(text: string): Citation[] {
  return text.split('\n').flatMap((line, index) =>
    UNREADABLE_CITATIONS.flatMap(([what, pattern]) =>
      [...line.matchAll(pattern)].map(match => ({
        line: index + 1,
        what,
        text: match[0],
      })),
    ),
  );
}

/** Tracked and new (not ignored) files of the repository that exist on disk. */
function repositoryFiles(): string[] {
  return execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter(file => file !== '' && existsSync(path.join(REPO_ROOT, file)));
}

function isBinary(content: Buffer): boolean {
  return content.includes(0);
}

describe('citations in the repository', () => {
  it('recognises each kind of citation a reader cannot open', () => {
    // Split with `${...}` so that this file holds no citation itself.
    const sample = [
      `/** Replicas >= 2 (${'NVIDIA'}.md §1.2). */`,
      `// see ${'STATE-2026-11'}.md and ${'PEERS'}.md`,
      // The path is joined at run time: this file names no such folder.
      ` * facts in ${['..', 'shared', 'reference', 'notes'].join('/')}`,
      `// ${'Seed'} 003's job; the ${'seed'}-003 list`,
      ` * compiled in ${'mig-profiles'}.yaml`,
      ` * overrides \`flags.migStrategy\` (${'§'}1.1).`,
    ].join('\n');
    expect(
      unreadableCitations(sample).map(({ line, what }) => [line, what]),
    ).toEqual([
      [1, 'a research note'],
      [2, 'a research note'],
      [2, 'a research note'],
      [3, 'the shared folder'],
      [4, 'a seed'],
      [4, 'a seed'],
      [5, 'a reference file compiled outside the repository'],
      [6, 'a section of a note, without its name'],
    ]);
  });

  it('lets the project cite its own docs and upstream sources', () => {
    const sample = [
      ' * the default is the one docs/architecture.md shows',
      ' * (NVIDIA k8s-device-plugin v0.20.0 `api/config/v1/replicas.go`)',
      ' * (https://karpenter.sh/v1.14/concepts/nodeoverlays/)',
      '// a shared GPU; seeds the embedded repository from test/fixtures',
      ' * Allocation index of the gpu backend (issue 5 §4)',
    ].join('\n');
    expect(unreadableCitations(sample)).toEqual([]);
  });

  it('has none in any source, test or doc file', () => {
    const files = repositoryFiles();
    expect(files).toContain('docs/architecture.md');
    expect(files).toContain('plugins/gpu-common/src/mig/fit.ts');

    const findings = files.flatMap(file => {
      const content = readFileSync(path.join(REPO_ROOT, file));
      if (isBinary(content)) return [];
      return unreadableCitations(content.toString('utf8')).map(
        ({ line, what, text }) => `${file}:${line}: ${what} "${text}"`,
      );
    });
    expect(findings).toEqual([]);
  });
});
