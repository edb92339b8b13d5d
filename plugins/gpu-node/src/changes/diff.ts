import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import type { ChangeSet, FileChange } from './types';

type Op = { kind: ' ' | '-' | '+'; line: string };

const CONTEXT = 3;

/** Marks a last line without a newline, so adding one shows as a change. */
const NO_NEWLINE = '\u0000no-newline';

function splitLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}

function printLine(kind: string, line: string): string {
  return line.endsWith(NO_NEWLINE)
    ? `${kind}${line.slice(0, -NO_NEWLINE.length)}\n\\ No newline at end of file`
    : `${kind}${line}`;
}

/**
 * Line diff by longest common subsequence. Files here are small (manifests),
 * so the quadratic table is cheap and keeps the code obvious. Common prefix
 * and suffix are trimmed first, which is the usual case for appended entries.
 */
export function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  const lcs: Uint32Array[] = Array.from(
    { length: n + 1 },
    () => new Uint32Array(m + 1),
  );
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] =
        midA[i] === midB[j]
          ? lcs[i + 1][j + 1] + 1
          : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = a.slice(0, start).map(line => ({ kind: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      ops.push({ kind: ' ', line: midA[i] });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Deletions before insertions, as `diff -u` prints them.
      ops.push({ kind: '-', line: midA[i++] });
    } else {
      ops.push({ kind: '+', line: midB[j++] });
    }
  }
  ops.push(...a.slice(endA).map(line => ({ kind: ' ' as const, line })));
  return ops;
}

function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  const changed = ops
    .map((op, idx) => (op.kind === ' ' ? -1 : idx))
    .filter(idx => idx >= 0);
  if (changed.length === 0) return out;
  // Group changes whose context windows touch.
  const groups: [number, number][] = [];
  for (const idx of changed) {
    const last = groups[groups.length - 1];
    if (last && idx - last[1] <= CONTEXT * 2 + 1) last[1] = idx;
    else groups.push([idx, idx]);
  }
  for (const [first, last] of groups) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, last + CONTEXT);
    let oldStart = 1;
    let newStart = 1;
    for (let k = 0; k < from; k++) {
      if (ops[k].kind !== '+') oldStart++;
      if (ops[k].kind !== '-') newStart++;
    }
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter(o => o.kind !== '+').length;
    const newCount = slice.filter(o => o.kind !== '-').length;
    out.push(
      `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`,
    );
    for (const op of slice) out.push(printLine(op.kind, op.line));
  }
  return out;
}

/** Unified diff of one file change (`/dev/null` on the side where the file does not exist). */
export function renderFileChangeDiff(change: FileChange): string {
  const before = splitLines(
    change.action === 'create' ? undefined : change.previous,
  );
  const after = splitLines(
    change.action === 'delete' ? undefined : change.content,
  );
  const lines = [
    change.action === 'create' ? '--- /dev/null' : `--- a/${change.path}`,
    change.action === 'delete' ? '+++ /dev/null' : `+++ b/${change.path}`,
    ...hunks(diffLines(before, after)),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 *  Unified diff text of a whole change set, files in path order ('' when empty).
 *
 * @public
 */
export function renderChangeSetDiff(changeSet: ChangeSet): string {
  return [...changeSet.changes]
    .sort((a, b) => compareStrings(a.path, b.path))
    .map(renderFileChangeDiff)
    .join('');
}
