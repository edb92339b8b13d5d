/**
 * The Applications an Argo CD ApplicationSet's git generators make of this
 * repository's folders (argo-cd docs release-3.4,
 * `operator-manual/applicationset/Generators-Git.md`; argoproj/argo-cd
 * `applicationset/generators/git.go`):
 *
 * - `directories`: one Application per folder matching a `path` glob
 *   (Go's `path.Match`: `*` and `?` stay within one folder), unless an
 *   `exclude: true` entry matches it too;
 * - `files`: one per file matching a `path` glob, its folder as the `path`
 *   parameter.
 *
 * The template's source path names the folder by the `path` parameter
 * (`{{path}}`, or `{{.path.path}}` with `goTemplate`); a template that
 * names it otherwise is left out (which folder it applies cannot be told).
 */
import { posix } from 'node:path';
import { getIn, type PlainObject } from './yamlObjects';

/** One git generator's globs, as the reviewer finds them. */
export interface GitGenerator {
  /** `spec.generators[0].git.directories` or `…git.files`. */
  field: string;
  kind: 'directories' | 'files';
  include: string[];
  exclude: string[];
}

/** An Application the set generates: the folder it applies, and the generator that made it. */
export interface GeneratedApplication {
  path: string;
  generator: GitGenerator;
}

export function isArgoApplicationSet(object: PlainObject): boolean {
  return (
    object.kind === 'ApplicationSet' &&
    object.apiVersion === 'argoproj.io/v1alpha1'
  );
}

/** Go's `path.Match` as a regular expression (classes `[a-z]`, `[^a]` kept). */
function globRegExp(glob: string): RegExp {
  let body = '';
  let inClass = false;
  for (const char of glob) {
    if (inClass) {
      body += char === '\\' ? '\\\\' : char;
      inClass = char !== ']';
    } else if (char === '*') body += '[^/]*';
    else if (char === '?') body += '[^/]';
    else if (char === '[') {
      body += '[';
      inClass = true;
    } else body += char.replace(/[.+^${}()|\\\]\/]/g, c => `\\${c}`);
  }
  return new RegExp(`^${body}$`);
}

export function globMatches(glob: string, path: string): boolean {
  return globRegExp(glob.replace(/^\/+|\/+$/g, '')).test(path);
}

/** The generated `path` parameter in a template (`{{path}}`; `{{.path.path}}` with `goTemplate`). */
const PATH_PARAM = /\{\{\s*(?:\.path\.path|path)\s*\}\}/;

/** The template's source path as written (`spec.template.spec.source.path`, or its first `sources` entry's). */
function writtenTemplatePath(set: PlainObject): string | undefined {
  const source =
    getIn(set, 'spec', 'template', 'spec', 'source') ??
    getIn(set, 'spec', 'template', 'spec', 'sources', '0');
  const written = getIn(source, 'path');
  if (typeof written !== 'string') return undefined;
  // A template naming its folder by anything but the path parameter: which folder cannot be told.
  if (written.replace(new RegExp(PATH_PARAM.source, 'g'), '').includes('{{')) {
    return undefined;
  }
  return written;
}

/** The template's source path as a function of the generated `path` parameter. */
function templatePath(
  set: PlainObject,
): ((path: string) => string) | undefined {
  const written = writtenTemplatePath(set);
  if (written === undefined) return undefined;
  const param = new RegExp(PATH_PARAM.source, 'g');
  return path => posix.normalize(written.replace(param, path));
}

function gitGenerators(set: PlainObject): GitGenerator[] {
  const generators = getIn(set, 'spec', 'generators');
  if (!Array.isArray(generators)) return [];
  return generators.flatMap((generator, i) =>
    (['directories', 'files'] as const).flatMap(kind => {
      const entries = getIn(generator, 'git', kind);
      if (!Array.isArray(entries)) return [];
      const paths = (exclude: boolean) =>
        entries
          .filter(e => (getIn(e, 'exclude') === true) === exclude)
          .map(e => getIn(e, 'path'))
          .filter((p): p is string => typeof p === 'string');
      return [
        {
          field: `spec.generators[${i}].git.${kind}`,
          kind,
          include: paths(false),
          exclude: paths(true),
        },
      ];
    }),
  );
}

/**
 * What `set` generates from the repository's `folders` and `files`
 * (repository paths); empty when its template names its folder otherwise.
 */
export function generatedApplications(
  set: PlainObject,
  folders: readonly string[],
  files: readonly string[],
): { generators: GitGenerator[]; applications: GeneratedApplication[] } {
  const generators = gitGenerators(set);
  const pathOf = templatePath(set);
  if (!pathOf) return { generators, applications: [] };
  const applications = generators.flatMap(generator => {
    const matches = (p: string) =>
      generator.include.some(g => globMatches(g, p)) &&
      !generator.exclude.some(g => globMatches(g, p));
    const found =
      generator.kind === 'directories'
        ? folders.filter(matches)
        : [...new Set(files.filter(matches).map(f => posix.dirname(f)))];
    return found.map(folder => ({ path: pathOf(folder), generator }));
  });
  return { generators, applications };
}

/** The folder of a glob before its first segment holding a wildcard (`platform/addons` of `platform/addons/*`). */
function fixedFolder(glob: string): string {
  const segments = glob.replace(/^\/+|\/+$/g, '').split('/');
  const wild = segments.findIndex(segment => /[*?[]/.test(segment));
  return segments.slice(0, wild < 0 ? segments.length : wild).join('/');
}

/**
 * The folders every Application `set` may generate applies lies in, whatever
 * the repository holds: each include glob's folder before its first
 * wildcard, under the template's path before its `path` parameter (a
 * `files` glob's folder: the Application applies the matched file's
 * folder). A run that sees only part of the repository (a sparse checkout)
 * takes these, since it cannot list the folders the globs would match.
 * Empty when the template names its folder otherwise.
 */
export function generatedApplicationFolders(set: PlainObject): string[] {
  const written = writtenTemplatePath(set);
  if (written === undefined) return [];
  const at = written.search(PATH_PARAM);
  // A template without the parameter applies one folder, whatever it generates.
  if (at < 0) return [posix.normalize(written).replace(/\/$/, '')];
  const before = written.slice(0, at);
  return gitGenerators(set).flatMap(generator =>
    generator.include.map(glob => {
      const folder = fixedFolder(
        generator.kind === 'files' ? posix.dirname(glob) : glob,
      );
      return posix.normalize(posix.join(before, folder)).replace(/\/$/, '');
    }),
  );
}
