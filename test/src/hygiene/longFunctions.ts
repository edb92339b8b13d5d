import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import path from 'path';
import ts from 'typescript';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Above this many lines a function must say why it is long, or be on the to-do list. */
export const MAX_LINES = 80;

/**
 * The marker a comment directly above a long function carries to say why it
 * is long, e.g. `// long because: one JSX tree, cut it and the layout splits`
 * (or the same words on a line of its JSDoc).
 */
export const WHY_LONG_MARKER = /\blong because\b\s*:?\s*\S/;

/** Production sources: every package's `src/`, without tests and test helpers. */
const PRODUCTION_SOURCE = /^(?:plugins|packages)\/[^/]+\/src\/.*\.tsx?$/;
const NOT_PRODUCTION =
  /\.test\.tsx?$|\/__testUtils__\/|\/__fixtures__\/|\/setupTests\.ts$|\.d\.ts$/;

export interface LongFunction {
  /** Repository-relative path. */
  file: string;
  /** Enclosing names joined by `.`, e.g. `RepoIndex.refreshNow`; `#2` when a name repeats in a file. */
  name: string;
  lines: number;
  /** Whether a comment directly above it carries {@link WHY_LONG_MARKER}. */
  explained: boolean;
}

export function productionSources(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(file => PRODUCTION_SOURCE.test(file) && !NOT_PRODUCTION.test(file));
}

/** The functions of `text` (methods, arrows and function expressions included) over {@link MAX_LINES}. */
export function longFunctionsOf(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: LongFunction[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, scope: string[]): void => {
    let inner = scope;
    if (isFunctionLike(node)) {
      inner = [...scope, ownName(node)];
      const lines = lineCount(source, node);
      if (lines > MAX_LINES) {
        const name = unique(inner.join('.'), seen);
        found.push({ file, name, lines, explained: explained(source, node) });
      }
    } else if (ts.isClassDeclaration(node) && node.name) {
      inner = [...scope, node.name.text];
    }
    ts.forEachChild(node, child => visit(child, inner));
  };
  visit(source, []);
  return found;
}

export function longFunctionsOfRepository(): LongFunction[] {
  return productionSources().flatMap(file =>
    longFunctionsOf(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')),
  );
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

function isFunctionLike(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined
  );
}

/** The name a reader would search for: its own, the variable or property it is assigned to, or the call it is passed to. */
function ownName(node: FunctionNode): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name && !ts.isComputedPropertyName(node.name)) {
    return node.name.getText();
  }
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    !ts.isComputedPropertyName(parent.name)
  ) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) {
    return `${calleeName(parent.expression)}(callback)`;
  }
  return '(anonymous)';
}

function calleeName(callee: ts.Expression): string {
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  if (ts.isIdentifier(callee)) return callee.text;
  return 'call';
}

function unique(name: string, seen: Map<string, number>): string {
  const count = (seen.get(name) ?? 0) + 1;
  seen.set(name, count);
  return count === 1 ? name : `${name}#${count}`;
}

function lineCount(source: ts.SourceFile, node: ts.Node): number {
  const first = source.getLineAndCharacterOfPosition(
    node.getStart(source),
  ).line;
  const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return last - first + 1;
}

/**
 * A comment is "directly above" when it leads the function or the statement,
 * declaration or member that holds it (`export const f = () => …`,
 * `router.get('/x', async () => …)`).
 */
function explained(source: ts.SourceFile, node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    const comments =
      ts.getLeadingCommentRanges(source.text, at.getFullStart()) ?? [];
    if (
      comments.some(c => WHY_LONG_MARKER.test(source.text.slice(c.pos, c.end)))
    ) {
      return true;
    }
    if (ts.isStatement(at) || ts.isClassElement(at) || ts.isSourceFile(at)) {
      return false;
    }
  }
  return false;
}
