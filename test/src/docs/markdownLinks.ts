/**
 * The relative links of the project's markdown and where they lead: a file
 * that must exist, and, after `#`, a heading of that file as GitHub anchors
 * it (the rendered README and docs are read there). GitHub's rule
 * (github/cmark-gfm's `extensions/autolink` does not do it; the anchor is
 * github.com's `html-pipeline` TableOfContentsFilter): the heading's text
 * lower-cased, every character that is not a letter, digit, space, `-` or
 * `_` dropped, spaces made `-`; a repeated anchor gets `-1`, `-2`, ….
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface MarkdownLink {
  /** `<doc>:<line>`, for the failure message. */
  where: string;
  target: string;
}

/** The text with fenced code blocks, inline code spans and HTML comments blanked (lines kept): none of them renders a link. */
function withoutCode(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, comment => comment.replace(/[^\n]/g, ' '))
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, block =>
      block.replace(/[^\n]/g, ' '),
    )
    .replace(/`[^`\n]*`/g, span => ' '.repeat(span.length));
}

/** The heading's text as it renders: inline code kept, link and emphasis marks gone. */
function headingText(raw: string): string {
  return raw
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim();
}

/** The anchors GitHub gives a markdown text's headings (and explicit `<a id>`s). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const unfenced = text.replace(
    /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm,
    block => block.replace(/[^\n]/g, ' '),
  );
  for (const match of unfenced.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = headingText(match[1])
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of unfenced.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
    anchors.add(match[1]);
  }
  return anchors;
}

/** The links and images of a markdown text whose target is in this repository. */
export function relativeLinks(doc: string, text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  const lines = withoutCode(text).split('\n');
  lines.forEach((line, index) => {
    const inline = [
      ...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g),
    ];
    const reference = [...line.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?\s*$/g)];
    for (const match of [...inline, ...reference]) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links.push({ where: `${doc}:${index + 1}`, target });
    }
  });
  return links;
}

/** Why a link does not resolve from `doc` under `root` ('' when it does). */
export function brokenReason(
  root: string,
  doc: string,
  target: string,
): string {
  const [file, anchor] = target.split('#', 2);
  const resolved = file
    ? path.resolve(path.dirname(path.join(root, doc)), decodeURI(file))
    : path.join(root, doc);
  if (!resolved.startsWith(root)) return 'leads out of the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || anchor === '') return '';
  if (statSync(resolved).isDirectory()) return 'an anchor on a folder';
  if (!resolved.endsWith('.md')) return '';
  const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
  return anchors.has(decodeURIComponent(anchor))
    ? ''
    : `no heading #${anchor} in ${path.relative(root, resolved)}`;
}
