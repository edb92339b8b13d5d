/**
 * How much CPU a process group has used so far, so that a git timeout can
 * tell a hung command from a slow one: a git waiting on a remote that
 * stopped answering sits in `poll` and uses none, while a sparse checkout of
 * 100k files on a busy machine uses CPU all along (the scale bench's
 * `git sparse-checkout` was killed at 60 s while it was working).
 *
 * Read from Linux's `/proc/<pid>/stat` (proc(5): field 5 `pgrp`, fields
 * 14-17 `utime stime cutime cstime` in clock ticks; `cutime`/`cstime` keep
 * the CPU of children already reaped, so a finished `git fetch` helper still
 * counts). Undefined where there is no `/proc`: the caller then keeps its
 * plain timeout.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Fields of `/proc/<pid>/stat` after `(comm)`, 0-based from `state`. */
const PGRP = 2;
const FIRST_CPU_FIELD = 11;
const CPU_FIELDS = 4;

/** `[pgrp, ticks]` of one `/proc/<pid>/stat` line. */
function groupAndTicks(stat: string): [number, number] | undefined {
  // `comm` may hold spaces and parentheses: the fields start after the last `)`.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
  const cpu = fields
    .slice(FIRST_CPU_FIELD, FIRST_CPU_FIELD + CPU_FIELDS)
    .map(Number);
  if (cpu.length < CPU_FIELDS || cpu.some(Number.isNaN)) return undefined;
  return [Number(fields[PGRP]), cpu.reduce((a, b) => a + b, 0)];
}

/**
 * CPU ticks used by every live process of group `pgid` (with the children
 * they reaped), or undefined when the system has no `/proc`.
 */
export async function processGroupCpuTicks(
  pgid: number,
): Promise<number | undefined> {
  // Read at once, not through the thread pool: a few hundred in-kernel
  // files take milliseconds, once a period; on a loaded machine, queued
  // async reads made a stalled git wait seconds more for its verdict.
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter(name => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string | undefined;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      stat = undefined; // gone meanwhile
    }
    const parsed = stat === undefined ? undefined : groupAndTicks(stat);
    if (parsed && parsed[0] === pgid) ticks += parsed[1];
  }
  return ticks;
}
