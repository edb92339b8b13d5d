/**
 * The product edits YAML through the `yaml` Document API, whose serializer
 * writes every line in one style (list items indented under their key, its
 * own quoting of keys). A team's file written in another style (Flux's
 * un-indented lists, the Karpenter blueprints' 9-space taint list) would
 * come back re-indented on every line, not only where the product changed
 * something, and a release would not give it back byte for byte. So the
 * lines an edit did not change keep the team's text.
 */
import { parseAllDocuments } from 'yaml';

/** Beyond this many line pairs the comparison costs more than the style is worth: the serializer's text is written. */
const MAX_LINE_PAIRS = 4_000_000;

type Edit = { kind: 'same'; from: number } | { kind: 'new'; line: string };

/**
 * How `edited` is made from `before` line by line (a longest common
 * subsequence): each line of `edited` is either line `from` of `before`
 * or a new one.
 */
function lineEdits(before: string[], edited: string[]): Edit[] {
  const n = before.length;
  const m = edited.length;
  // common[i][j]: the longest common subsequence of before[i..] and edited[j..].
  const common = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i][j] =
        before[i] === edited[j]
          ? common[i + 1][j + 1] + 1
          : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && before[i] === edited[j]) {
      edits.push({ kind: 'same', from: i });
      i++;
      j++;
    } else if (i < n && common[i + 1][j] >= common[i][j + 1]) {
      i++;
    } else {
      edits.push({ kind: 'new', line: edited[j] });
      j++;
    }
  }
  return edits;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** A key that opens a block (`resources:`), and a list item (`- a.yaml`). */
const BLOCK_KEY = /^(\s*)[^\s#-][^#]*:\s*(#.*)?$/;
const LIST_ITEM = /^(\s*)- /;

/**
 * Whether the team writes a list's items indented under their key
 * (`key:\n  - a`, the serializer's default) rather than flush with it
 * (`key:\n- a`, Flux's and kubectl's style): what most of its lists do.
 */
export function listItemsIndented(original: string): boolean {
  const lines = original.split('\n');
  let flush = 0;
  let indented = 0;
  for (let i = 1; i < lines.length; i++) {
    const item = LIST_ITEM.exec(lines[i]);
    const key = BLOCK_KEY.exec(lines[i - 1]);
    if (!item || !key) continue;
    if (item[1].length === key[1].length) flush++;
    else indented++;
  }
  return flush <= indented;
}

/** A line written (kept from the team's text, or new): its indentation in the serializer's text and as written. */
interface KeptIndent {
  serialized: number;
  original: number;
}

/**
 * A new line in the indentation of the team's text around it: shifted as
 * the serializer shifted the nearest kept line above it at its depth or
 * shallower (its parent or an earlier sibling), e.g. by the 2 spaces the
 * serializer puts before the items of a list the team wrote flush with its
 * key.
 */
function shifted(line: string, kept: KeptIndent[]): string {
  const depth = indentOf(line);
  let shift = 0;
  for (let k = kept.length - 1; k >= 0; k--) {
    if (kept[k].serialized <= depth) {
      shift = kept[k].original - kept[k].serialized;
      break;
    }
  }
  if (shift > 0) return `${' '.repeat(shift)}${line}`;
  return line.slice(Math.min(-shift, depth));
}

function sameDocuments(a: string, b: string): boolean {
  const parse = (text: string) => parseAllDocuments(text);
  const docsA = parse(a);
  const docsB = parse(b);
  if (!Array.isArray(docsA) || !Array.isArray(docsB)) return false;
  if (docsA.some(d => d.errors.length > 0)) return false;
  return (
    JSON.stringify(docsA.map(d => d.toJS())) ===
    JSON.stringify(docsB.map(d => d.toJS()))
  );
}

/**
 * `edited` (the serializer's text of the edited file) with every line the
 * edit did not change written as in `original`: `reserialized` is the
 * serializer's text of the file before the edit, which must have the same
 * lines as `original`, one for one. New lines take the indentation of the
 * team's text around them. Whatever this makes must mean exactly what
 * `edited` means (same documents, same values, same order), or `edited`
 * is returned as it is.
 */
export function keepOriginalLines(
  original: string,
  reserialized: string,
  edited: string,
): string {
  // Written in the serializer's style already (the product's own files):
  // nothing to keep that the edit does not.
  if (original === reserialized) return edited;
  const originalLines = original.split('\n');
  const before = reserialized.split('\n');
  const after = edited.split('\n');
  if (originalLines.length !== before.length) return edited;
  if (before.length * after.length > MAX_LINE_PAIRS) return edited;
  const keptIndents: KeptIndent[] = [];
  const lines = lineEdits(before, after).map(edit => {
    if (edit.kind === 'new') {
      if (edit.line.trim() === '') return edit.line;
      const line = shifted(edit.line, keptIndents);
      // The lines below it (its children) follow it.
      keptIndents.push({
        serialized: indentOf(edit.line),
        original: indentOf(line),
      });
      return line;
    }
    const kept = originalLines[edit.from];
    if (kept.trim() !== '') {
      keptIndents.push({
        serialized: indentOf(before[edit.from]),
        original: indentOf(kept),
      });
    }
    return kept;
  });
  const text = lines.join('\n');
  if (text === edited) return edited;
  return sameDocuments(text, edited) ? text : edited;
}
