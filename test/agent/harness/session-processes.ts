import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

// The processes of the code harness's sessions as /proc shows them (python-session, shell-session tests).

/** The code sessions' drivers of `program` (python3 -u -c …, bash … -c …) whose working folder is `cwd`, by host pid. */
export function driversIn(cwd: string, program = 'python'): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (readlinkSync(`/proc/${entry}/cwd`) === cwd && path.basename(argv[0]!).startsWith(program) && argv.includes('-c') && argv.some((a) => a.includes('DESKPILOT_CODE_SESSION')) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found.sort((a, b) => a - b);
}

/** A process's pid in its innermost pid namespace (NSpid's last field). */
export function namespacePid(pid: number): string {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('NSpid:'))!;
  return line.trim().split(/\s+/).at(-1)!;
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
