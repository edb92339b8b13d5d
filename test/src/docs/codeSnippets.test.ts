/**
 * Every TypeScript snippet of the READMEs and docs compiles as an adopter
 * pastes it: each fenced `ts` / `tsx` block is a file of its own in a temp
 * project whose packages are this workspace's (its node_modules, where
 * `@gpu-gitops/*` link to the workspace packages), checked by tsc. A snippet
 * that uses a name it does not import, or imports one a package does not
 * export, fails here.
 */
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

interface Snippet {
  /** Where it is: `<doc>:<line of the fence>`. */
  where: string;
  file: string;
  code: string;
}

/** The documents an adopter reads: the READMEs and docs/. */
function documents(): string[] {
  const readmes = ['packages', 'plugins'].flatMap(parent =>
    readdirSync(path.join(ROOT, parent)).map(name =>
      path.join(parent, name, 'README.md'),
    ),
  );
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter(name => name.endsWith('.md'))
    .map(name => path.join('docs', name));
  return ['README.md', ...readmes, ...docs].filter(doc => {
    try {
      return readFileSync(path.join(ROOT, doc)).length > 0;
    } catch {
      return false;
    }
  });
}

/** The fenced ts / tsx blocks of a markdown text. */
function typeScriptBlocks(doc: string, text: string): Omit<Snippet, 'file'>[] {
  const blocks: Omit<Snippet, 'file'>[] = [];
  const fence = /^```(ts|tsx|typescript)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({
      where: `${doc}:${line}:${match[1] === 'tsx' ? 'tsx' : 'ts'}`,
      code: match[2],
    });
  }
  return blocks;
}

function snippets(): Snippet[] {
  return documents().flatMap(doc =>
    typeScriptBlocks(doc, readFileSync(path.join(ROOT, doc), 'utf8')).map(
      block => {
        const [file, line, ext] = block.where.split(':');
        return {
          where: `${file}:${line}`,
          file: `${file.replace(/[^A-Za-z0-9]+/g, '_')}_${line}.${ext}`,
          code: block.code,
        };
      },
    ),
  );
}

/** tsc's errors, by snippet ('' when it compiles). */
function compile(all: Snippet[]): Map<string, string> {
  const project = mkdtempSync(path.join(tmpdir(), 'gpu-doc-snippets-'));
  try {
    symlinkSync(
      path.join(ROOT, 'node_modules'),
      path.join(project, 'node_modules'),
      'dir',
    );
    for (const snippet of all) {
      writeFileSync(path.join(project, snippet.file), snippet.code);
    }
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          // A Backstage app's (@backstage/cli/config/tsconfig.json).
          strict: true,
          noEmit: true,
          isolatedModules: true,
          esModuleInterop: true,
          module: 'ES2020',
          moduleResolution: 'bundler',
          target: 'ES2022',
          lib: ['DOM', 'DOM.Iterable', 'ES2023'],
          jsx: 'react-jsx',
          skipLibCheck: true,
          types: ['node', 'react'],
        },
        files: all.map(snippet => snippet.file),
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [
        require.resolve('typescript/bin/tsc'),
        '-p',
        project,
        '--pretty',
        'false',
      ],
      { cwd: project, encoding: 'utf8', timeout: 5 * 60_000 },
    );
    if (tsc.error) throw tsc.error;
    const errors = new Map(all.map(snippet => [snippet.where, '']));
    for (const snippet of all) {
      const lines = tsc.stdout
        .split('\n')
        .filter(line => line.startsWith(`${snippet.file}(`));
      errors.set(snippet.where, lines.join('\n'));
    }
    return errors;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

describe('the TypeScript snippets of the READMEs and docs', () => {
  const all = snippets();

  it('are found', () => {
    expect(all.map(snippet => snippet.where)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^docs\/platform-engineers\.md:\d+$/),
      ]),
    );
  });

  it('compile against the packages', () => {
    const errors = compile(all);
    expect(
      Object.fromEntries([...errors].filter(([, text]) => text !== '')),
    ).toEqual({});
  });
});
