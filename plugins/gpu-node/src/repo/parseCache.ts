/**
 * What each file content parses to, kept by its git blob id: the updater
 * re-renders many open pull requests on one base, and each re-render used
 * to parse the same 100k workload files again (issue 24: ~340 s each on
 * the scale repository). A file is parsed the first time its content is
 * seen; its syntax error is kept with it, so every reader still reports it.
 *
 * Bounded by the size of the texts it holds, least recently used first out
 * (the parsed values take about four times their text's size in the heap).
 * The bound must hold the files a re-render reads: a pass reads them in the
 * same order every time, and a least-recently-used cache smaller than that
 * drops each file just before its next turn, so nothing is ever found. The
 * scale repository (`bench/scaleRepo.ts`: 131k files, 90.5 MiB of text) did
 * that under a bound of 64 Mi: each re-render's "Read repository state" took
 * 50 s, against 12 s once its files stayed kept.
 * The values are frozen: they are shared by every reader of every pass, and
 * one that changed a value would change it for all of them.
 */
import { deepFreeze } from '../deepFreeze';
import {
  parseYamlDocuments,
  type ParsedDocument,
  type SkippedFile,
} from './yamlObjects';

/**
 * How a file's text is parsed (`parseYamlDocuments`; a test counts calls).
 *
 * @public
 */
export type FileParser = (
  path: string,
  text: string,
) => { documents: ParsedDocument[]; error?: string };

/** One content's parse: its documents (without a path: one content may sit at many) and its syntax error. */
interface CachedParse {
  documents: readonly { index: number; value: unknown }[];
  error?: string;
  /** The text's length, what the bound counts. */
  size: number;
}

/** @public */
export interface ParseCacheOptions {
  /** The most text (in characters) whose parse is kept; default 128 Mi (the scale repository's 90.5 MiB, with room). */
  maxTextSize?: number;
  parse?: FileParser;
}

const DEFAULT_MAX_TEXT_SIZE = 128 * 2 ** 20;

/**
 * Parses of file contents by blob id (`git/blobId.ts`), least recently used
 * dropped first.
 *
 * @public
 */
export class ParseCache {
  private readonly entries = new Map<string, CachedParse>();
  private size = 0;
  private readonly maxTextSize: number;
  private readonly parse: FileParser;

  constructor(options: ParseCacheOptions = {}) {
    this.maxTextSize = options.maxTextSize ?? DEFAULT_MAX_TEXT_SIZE;
    this.parse = options.parse ?? parseYamlDocuments;
  }

  /** Whether the content of blob `id` was parsed and is still kept. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /**
   * The documents of the file at `path` whose content is blob `id`, its
   * syntax error pushed to `skipped`. `text` is asked only when the content
   * was not parsed yet; undefined (the file is gone) yields nothing.
   */
  documents(
    id: string,
    path: string,
    text: () => string | undefined,
    skipped: SkippedFile[],
  ): ParsedDocument[] {
    const parsed = this.recall(id) ?? this.parseAndKeep(id, path, text());
    if (!parsed) return [];
    if (parsed.error) skipped.push({ path, reason: parsed.error });
    return parsed.documents.map(({ index, value }) => ({ path, index, value }));
  }

  /** How much text the kept parses came from. */
  get textSize(): number {
    return this.size;
  }

  private recall(id: string): CachedParse | undefined {
    const parsed = this.entries.get(id);
    if (parsed) {
      // Most recently used last: a Map keeps insertion order.
      this.entries.delete(id);
      this.entries.set(id, parsed);
    }
    return parsed;
  }

  private parseAndKeep(
    id: string,
    path: string,
    text: string | undefined,
  ): CachedParse | undefined {
    if (text === undefined) return undefined;
    const { documents, error } = this.parse(path, text);
    const parsed: CachedParse = {
      documents: documents.map(({ index, value }) => {
        deepFreeze(value);
        return { index, value };
      }),
      ...(error ? { error } : {}),
      size: text.length,
    };
    this.entries.set(id, parsed);
    this.size += parsed.size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxTextSize) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
    return parsed;
  }
}

/**
 * The process's cache, shared by every reader that is given none: the
 * updater's re-renders of one pass, and the passes after it.
 */
export const sharedParseCache = new ParseCache();
