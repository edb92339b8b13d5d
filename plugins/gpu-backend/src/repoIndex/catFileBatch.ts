/**
 * One long-lived `git cat-file --batch` process per index cache: the
 * objects a refresh reads (changed blobs, and the trees and commits a diff
 * walks) are asked of it instead of a new git process each time. Starting
 * a process from a backend holding a 100k-workload index costs tens of
 * milliseconds (the kernel copies its page tables), more than the rest of
 * a one-commit refresh. The process is started on first use, never keeps
 * the backend alive (unref'd), and is started again after it ended.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A git object as `cat-file --batch` prints it. */
export interface GitObject {
  type: string;
  data: Buffer;
}

interface Pending {
  sha: string;
  resolve(object: GitObject | undefined): void;
  reject(error: Error): void;
}

/** How many answered reads the queue keeps before it drops them (one copy of the rest). */
const ANSWERED_KEPT_UP_TO = 4_096;

export class CatFileBatch {
  private child?: ChildProcessWithoutNullStreams;
  /**
   * The reads git has still to answer, in order, from `answered` on: a
   * queue with a moving head, never `shift()`ed. An array past ~16k
   * entries lives in V8's large-object space, where `shift()` moves every
   * entry left: a first index of 20k pools asked 20k blobs at once and
   * spent over a second shifting (CPU profile of `npm run bench -- scale`).
   */
  private pending: Pending[] = [];
  private answered = 0;
  private buffered: Buffer = Buffer.alloc(0);
  private stderr = '';

  constructor(
    private readonly gitDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** The objects of `shas` (undefined for one git does not have). */
  read(shas: string[]): Promise<(GitObject | undefined)[]> {
    if (shas.length === 0) return Promise.resolve([]);
    const child = this.process();
    const answers = shas.map(
      sha =>
        new Promise<GitObject | undefined>((resolve, reject) =>
          this.pending.push({ sha, resolve, reject }),
        ),
    );
    this.hold(child, true);
    child.stdin.write(`${shas.join('\n')}\n`);
    return Promise.all(answers).finally(() => {
      if (this.waiting() === 0) this.hold(child, false);
    });
  }

  private waiting(): number {
    return this.pending.length - this.answered;
  }

  /** The oldest unanswered read. */
  private next(): Pending | undefined {
    const pending = this.pending[this.answered];
    if (pending === undefined) return undefined;
    this.answered++;
    // Dropped in chunks: answered reads are not held while others keep coming.
    if (this.answered >= ANSWERED_KEPT_UP_TO) {
      this.pending = this.pending.slice(this.answered);
      this.answered = 0;
    }
    return pending;
  }

  /** Keeps the process (and its pipes) counted by the event loop only while answers are awaited. */
  private hold(child: ChildProcessWithoutNullStreams, on: boolean): void {
    const method = on ? 'ref' : 'unref';
    child[method]();
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      (stream as unknown as Record<string, (() => void) | undefined>)[
        method
      ]?.();
    }
  }

  /** Ends the process (a later read starts another). */
  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  private process(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: this.gitDir,
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.buffered = Buffer.alloc(0);
    this.stderr = '';
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', chunk => (this.stderr += chunk));
    const fail = (error: Error) => {
      if (this.child === child) this.child = undefined;
      const waiting = this.pending.slice(this.answered);
      this.pending = [];
      this.answered = 0;
      for (const p of waiting) p.reject(error);
    };
    child.on('error', fail);
    // A write after git ended (EPIPE) fails the reads, never the backend.
    child.stdin.on('error', fail);
    child.on('close', code =>
      fail(new Error(`git cat-file ended (${code}): ${this.stderr}`)),
    );
    // An idle reader never holds the backend (or a test run) open.
    this.hold(child, false);
    return child;
  }

  /** "<sha> <type> <size>\n<content>\n" per object, "<sha> missing\n" for an unknown one. */
  private receive(chunk: Buffer): void {
    this.buffered =
      this.buffered.length === 0
        ? chunk
        : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const newline = this.buffered.indexOf(10);
      if (newline < 0) return;
      const [, type, size] = this.buffered
        .subarray(0, newline)
        .toString('utf8')
        .split(' ');
      if (type === 'missing' || size === undefined) {
        this.buffered = this.buffered.subarray(newline + 1);
        this.next()?.resolve(undefined);
        continue;
      }
      const length = Number(size);
      const end = newline + 1 + length;
      if (this.buffered.length < end + 1) return;
      // A view of the received chunk, not a copy: every reader decodes it at
      // once (a first index reads 24k blobs; the copies fed the GC).
      const data = this.buffered.subarray(newline + 1, end);
      this.buffered = this.buffered.subarray(end + 1);
      this.next()?.resolve({ type, data });
    }
  }
}
