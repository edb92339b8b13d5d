import { readdirSync, readFileSync, statSync } from 'fs';
import path from 'path';
import ts from 'typescript';

/** A module's relative imports resolved to files of the graph (`.ts`, `.tsx` or a folder's `index.ts`). */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.tsx?$/;
const NOT_PRODUCTION = /\.test\.tsx?$|\.d\.ts$/;
const HELPER_FOLDERS = new Set(['__testUtils__', '__fixtures__']);

/** The production sources below `dir` (tests and test helpers left out), relative to it. */
function productionFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix)).flatMap(name => {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(dir, relative)).isDirectory()) {
      return HELPER_FOLDERS.has(name) ? [] : productionFiles(dir, relative);
    }
    return SOURCE.test(name) && !NOT_PRODUCTION.test(name) ? [relative] : [];
  });
}

function resolveImport(
  from: string,
  specifier: string,
  files: ReadonlySet<string>,
): string | undefined {
  const base = path.posix.normalize(
    path.posix.join(path.posix.dirname(from), specifier),
  );
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find(candidate =>
    files.has(candidate),
  );
}

/**
 * The graph of `sources` (path → text): every `import` and `export … from`
 * with a relative specifier, type-only ones included (a type cycle still
 * ties two modules into one).
 */
export function importGraphOf(
  sources: ReadonlyMap<string, string>,
): ImportGraph {
  const files = new Set(sources.keys());
  const graph: ImportGraph = new Map();
  for (const [file, text] of sources) {
    const targets = ts
      .preProcessFile(text, true, false)
      .importedFiles.map(imported => imported.fileName)
      .filter(specifier => specifier.startsWith('.'))
      .map(specifier => resolveImport(file, specifier, files))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import graph of a package's production sources under `srcDir`. */
export function importGraphOfFolder(srcDir: string): ImportGraph {
  const sources = new Map(
    productionFiles(srcDir).map(file => [
      file,
      readFileSync(path.join(srcDir, file), 'utf8'),
    ]),
  );
  return importGraphOf(sources);
}

/**
 * The modules that import each other, directly or round a loop: the graph's
 * strongly connected components of more than one module (or a module that
 * imports itself), each sorted (Tarjan's algorithm).
 */
export function importCycles(graph: ImportGraph): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    order.set(module, order.size);
    low.set(module, order.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module)!, order.get(target)!));
      }
    }
    if (low.get(module) !== order.get(module)) return;
    const component: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
    } while (top !== module);
    if (component.length > 1 || graph.get(module)?.includes(module)) {
      cycles.push(component.sort());
    }
  };
  for (const module of [...graph.keys()].sort()) {
    if (!order.has(module)) visit(module);
  }
  return cycles;
}
