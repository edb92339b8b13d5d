/**
 * Every relative link of the READMEs and docs/ resolves: the file it names
 * exists and so does the heading its `#anchor` names. The README is split by
 * reader (docs/platform-engineers.md, developers.md, reviewers.md,
 * managers.md); a section moved or renamed must not leave a link behind.
 */
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brokenReason, headingAnchors, relativeLinks } from './markdownLinks';

const ROOT = path.resolve(__dirname, '../../..');

/** The READMEs of a folder and its subfolders (not dependencies, builds or test fixtures). */
function readmesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap(
    entry => {
      const child = path.join(dir, entry.name);
      if (entry.isFile()) return entry.name === 'README.md' ? [child] : [];
      if (!entry.isDirectory()) return [];
      if (
        /^(node_modules|dist|dist-types|__fixtures__|fixtures)$/.test(
          entry.name,
        )
      ) {
        return [];
      }
      return readmesUnder(child);
    },
  );
}

/** README.md, docs/*.md and every README of the packages (their source folders' too) and of test/. */
function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter(name => name.endsWith('.md'))
    .map(name => path.join('docs', name));
  return [
    'README.md',
    ...docs,
    ...['packages', 'plugins', 'test'].flatMap(readmesUnder),
  ];
}

function broken(root: string, docs: string[]): string[] {
  return docs.flatMap(doc =>
    relativeLinks(doc, readFileSync(path.join(root, doc), 'utf8'))
      .map(link => ({ link, reason: brokenReason(root, doc, link.target) }))
      .filter(({ reason }) => reason !== '')
      .map(({ link, reason }) => `${link.where} (${link.target}): ${reason}`),
  );
}

describe('the relative links of the READMEs and docs', () => {
  it('are found in every reader guide', () => {
    const counts = Object.fromEntries(
      documents().map(doc => [
        doc,
        relativeLinks(doc, readFileSync(path.join(ROOT, doc), 'utf8')).length,
      ]),
    );
    const guides = [
      'README.md',
      'docs/platform-engineers.md',
      'docs/developers.md',
      'docs/reviewers.md',
      'docs/managers.md',
    ];
    expect(guides.filter(guide => !(counts[guide] > 0))).toEqual([]);
  });

  it('all resolve, file and anchor', () => {
    expect(broken(ROOT, documents())).toEqual([]);
  });

  it('show or link every picture in docs/ (a picture no guide names is out of date unseen)', () => {
    const linked = new Set(
      documents().flatMap(doc =>
        relativeLinks(doc, readFileSync(path.join(ROOT, doc), 'utf8')).map(
          link =>
            path.normalize(
              path.join(path.dirname(doc), link.target.replace(/#.*$/, '')),
            ),
        ),
      ),
    );
    const pictures = readdirSync(path.join(ROOT, 'docs'))
      .filter(name => name.endsWith('.png'))
      .map(name => path.join('docs', name));
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.filter(picture => !linked.has(picture))).toEqual([]);
  });

  it('are told apart from broken ones (file, anchor, repeated heading, code)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'gpu-doc-links-'));
    try {
      writeFileSync(
        path.join(root, 'a.md'),
        [
          '# Title',
          '## The `gpu-gitops` CLI',
          '## Notes',
          '## Notes',
          '[ok](#the-gpu-gitops-cli) [ok](b.md#b-heading) [ok](#notes-1)',
          '[bad](#the-cli) [bad](c.md) [bad](b.md#nope) [bad](#notes-2)',
          '`[code](#nowhere)`',
          '```',
          '[fenced](#nowhere)',
          '```',
          '[web](https://example.com/x.md#y)',
          '<!-- [commented](#nowhere) -->',
        ].join('\n'),
      );
      writeFileSync(path.join(root, 'b.md'), '# B heading\n');
      expect(broken(root, ['a.md'])).toEqual([
        'a.md:6 (#the-cli): no heading #the-cli in a.md',
        'a.md:6 (c.md): no such file',
        'a.md:6 (b.md#nope): no heading #nope in b.md',
        'a.md:6 (#notes-2): no heading #notes-2 in a.md',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('anchor headings as GitHub does', () => {
    expect([
      ...headingAnchors(
        '# What `validate` checks\n## Live data: what the GPUs really do\n### Kueue, v0.19.2 (beta)\n',
      ),
    ]).toEqual([
      'what-validate-checks',
      'live-data-what-the-gpus-really-do',
      'kueue-v0192-beta',
    ]);
  });
});
