/**
 * The install guide (docs/platform-engineers.md, "In your Backstage")
 * registers the software templates the scaffolder module ships
 * where the adopter's package manager put them: one catalog location per
 * template, relative to the backend's working directory (`packages/backend`
 * in a create-app app, hence `../../node_modules`), each with the rule that
 * lets the catalog take a Template — create-app's `catalog.rules` allow
 * Component, System, API, Resource and Location only, and the catalog drops
 * a Template they do not allow. scripts/adoption-run.sh runs these
 * locations in a fresh create-app app.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '../../..');
const MODULE = '@gpu-gitops/plugin-scaffolder-backend-module-gpu';
const TEMPLATES = path.join(
  ROOT,
  'plugins/scaffolder-backend-module-gpu/templates',
);

interface CatalogLocation {
  type?: string;
  target?: string;
  rules?: { allow?: string[] }[];
}

/** The documents of the fenced yaml blocks of a markdown text (an excerpt that does not parse is none). */
function yamlDocuments(text: string): unknown[] {
  const fence = /^```ya?ml[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  return [...text.matchAll(fence)].flatMap(match =>
    parseAllDocuments(match[1])
      .filter(doc => doc.errors.length === 0)
      .map(doc => doc.toJS()),
  );
}

/** The install guide's catalog locations of the module's packaged templates. */
function packagedTemplateLocations(): CatalogLocation[] {
  const guide = readFileSync(
    path.join(ROOT, 'docs/platform-engineers.md'),
    'utf8',
  );
  return yamlDocuments(guide)
    .flatMap(
      block =>
        (block as { catalog?: { locations?: CatalogLocation[] } } | null)
          ?.catalog?.locations ?? [],
    )
    .filter(location =>
      location.target?.includes(`node_modules/${MODULE}/templates/`),
    );
}

describe("the install guide's catalog locations of the packaged templates", () => {
  it('register every template the module ships, from node_modules, each allowing the Template kind', () => {
    const shipped = readdirSync(TEMPLATES)
      .filter(name => existsSync(path.join(TEMPLATES, name, 'template.yaml')))
      .map(
        name => `../../node_modules/${MODULE}/templates/${name}/template.yaml`,
      )
      .sort();
    expect(shipped.length).toBeGreaterThan(0);

    const documented = packagedTemplateLocations()
      .map(location => ({
        type: location.type,
        target: location.target,
        allowsTemplate:
          location.rules?.some(rule => rule.allow?.includes('Template')) ??
          false,
      }))
      .sort((a, b) => (a.target ?? '').localeCompare(b.target ?? ''));
    expect(documented).toEqual(
      shipped.map(target => ({ type: 'file', target, allowsTemplate: true })),
    );
  });
});
