/**
 * Test helper: the processes still talking to a test server, found by the
 * URL in their command line (`git fetch http://127.0.0.1:<port>/…`,
 * `git-remote-http origin http://127.0.0.1:<port>/…`). Linux /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

function talkingTo(port: string): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .join(' ');
      if (cmdline.includes(`:${port}/`)) lines.push(cmdline.trim());
    } catch {
      // the process ended meanwhile
    }
  }
  return lines;
}

/**
 * Command lines of the processes talking to `port`, once they are gone or
 * after `boundMs` (a killed process group takes a moment to disappear from
 * /proc; the bound is a hang guard).
 *
 * @public
 */
export async function processesLeftTalkingTo(
  port: string,
  boundMs = 5000,
): Promise<string[]> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const left = talkingTo(port);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

/**
 *  Command lines of the processes talking to `port` right now.
 *
 * @public
 */
export function processesTalkingTo(port: string): string[] {
  return talkingTo(port);
}
