/**
 * TEST-ONLY: checks a Kueue Configuration against the Go types Kueue
 * decodes it into (kubernetes-sigs/kueue v0.19.2
 * `apis/config/v1beta2/configuration_types.go`, vendored in
 * `../__fixtures__/`). Kueue decodes strictly (`pkg/config/config.go`:
 * `serializer.EnableStrict`), so a field the types lack stops the
 * controller at start; the field names come from each struct's `json` tags,
 * `,inline` members (TypeMeta, ControllerManager) spread into their parent.
 * Types of other packages (component-base's LeaderElectionConfiguration,
 * corev1 names) are leaves: not walked. The integration names are the ones
 * the `Integrations.Frameworks` comment lists as "Possible options".
 */
import * as fs from 'fs';
import * as path from 'path';

const GO_FILE = path.join(
  __dirname,
  '..',
  '__fixtures__',
  'kueue-v0.19.2_configuration_types.go',
);

interface GoField {
  json: string;
  /** The struct of this file it holds (pointer, slice or not), if any. */
  struct?: string;
}

/** Each struct of the file: its json fields, inline members resolved. */
function readStructs(source: string): Map<string, GoField[]> {
  const raw = new Map<string, { fields: GoField[]; inline: string[] }>();
  const structRe = /^type (\w+) struct \{\n([\s\S]*?)^\}/gm;
  for (const [, name, body] of source.matchAll(structRe)) {
    const fields: GoField[] = [];
    const inline: string[] = [];
    for (const line of body.split('\n')) {
      const m = /^\t(?:(\w+)\s+)?([\w.*[\]]+)\s+`json:"([^"]*)"`/.exec(line);
      if (!m) continue;
      const [, , type, tag] = m;
      const json = tag.split(',')[0];
      const base = type.replace(/^[*[\]]+/, '');
      if (json === '') {
        inline.push(base === 'metav1.TypeMeta' ? 'TypeMeta' : base);
      } else {
        fields.push({ json, ...(/^\w+$/.test(base) ? { struct: base } : {}) });
      }
    }
    raw.set(name, { fields, inline });
  }
  raw.set('TypeMeta', {
    fields: [{ json: 'apiVersion' }, { json: 'kind' }],
    inline: [],
  });
  const resolve = (name: string): GoField[] => {
    const s = raw.get(name);
    return s ? [...s.fields, ...s.inline.flatMap(resolve)] : [];
  };
  return new Map([...raw.keys()].map(name => [name, resolve(name)]));
}

function frameworkNames(source: string): string[] {
  const block = /Possible options:\n([\s\S]*?)\n\tFrameworks/.exec(source);
  return [...(block?.[1] ?? '').matchAll(/\/\/\s+- "([^"]+)"/g)].map(m => m[1]);
}

/** The fields of `config` Kueue's strict decoding would refuse, and unknown integrations. */
export function kueueConfigurationErrors(config: unknown): string[] {
  const source = fs.readFileSync(GO_FILE, 'utf8');
  const structs = readStructs(source);
  const errors: string[] = [];
  const walk = (value: unknown, struct: string, at: string) => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, struct, `${at}[${i}]`));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const fields = structs.get(struct);
    if (!fields) return;
    for (const [key, child] of Object.entries(value)) {
      const field = fields.find(f => f.json === key);
      if (!field) errors.push(`${at}.${key}: unknown field of ${struct}`);
      else if (field.struct && structs.has(field.struct)) {
        walk(child, field.struct, `${at}.${key}`);
      }
    }
  };
  walk(config, 'Configuration', '');
  const known = frameworkNames(source);
  if (known.length === 0) errors.push('no framework list found upstream');
  const frameworks = (config as any)?.integrations?.frameworks ?? [];
  for (const name of frameworks) {
    if (!known.includes(name)) errors.push(`integration ${name} is unknown`);
  }
  return errors;
}
