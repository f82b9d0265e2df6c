import path from 'node:path';
import { isInside, writableRoots, type SandboxPolicy } from './policy.js';

/**
 * Signs that the sandbox, not the command, made a command fail (docs/CONFIG.md
 * "Sandbox" lists them). Only a command that exited non-zero is read, and only these:
 *   1. EROFS ("Read-only file system", errno 30) on any path — the sandbox mounts
 *      everything outside the writable set read-only;
 *   2. EACCES / EPERM ("Permission denied", "Operation not permitted") naming a path
 *      outside the writable set;
 *   3. with network off: ENETUNREACH, ECONNREFUSED, a name that does not resolve;
 *   4. with no display: "cannot open display".
 * The first three different signs, joined; none → undefined.
 */
const EROFS = /read-only file system|\bEROFS\b|errno 30\b/i;
const DENIED = /permission denied|operation not permitted|\bEACCES\b|\bEPERM\b|errno (?:13|1)\b/i;
const NETWORK = /network is unreachable|\bENETUNREACH\b|connection refused|\bECONNREFUSED\b|could not resolve host|temporary failure in name resolution|name or service not known|\bEAI_AGAIN\b|\bENOTFOUND\b|getaddrinfo/i;
const DISPLAY = /can(?:no|')t open display|cannot connect to X server|unable to open display/i;

/** Absolute paths named on a line: quoted ('…', "…", ‘…’) or bare. */
function pathsOn(line: string): string[] {
  const quoted = [...line.matchAll(/['"‘`]((?:\/|~\/)[^'"’`\n]*)['"’`]/g)].map((m) => m[1]!);
  const bare = [...line.matchAll(/(?:^|[\s:=(])(\/[^\s:'"’`),]+)/g)].map((m) => m[1]!);
  return [...new Set([...quoted, ...bare])].map((p) => path.normalize(p));
}

export function sandboxRefusal(output: string, exitCode: number | null, policy: SandboxPolicy): string | undefined {
  if (policy.mode === 'danger-full-access' || exitCode === 0 || exitCode === null) return undefined;
  const roots = writableRoots(policy);
  const outside = (p: string) => !roots.some((r) => isInside(p, r));
  const signs = new Set<string>();
  for (const line of output.split('\n')) {
    if (EROFS.test(line)) {
      const where = pathsOn(line).find(outside);
      signs.add(`read-only file system${where ? ` at ${where}` : ''}`);
    } else if (DENIED.test(line)) {
      const where = pathsOn(line).find(outside);
      if (where) signs.add(`permission denied at ${where}, outside the writable set`);
    } else if (!policy.network && NETWORK.test(line)) {
      signs.add('network unreachable (the sandbox has no network)');
    } else if (!policy.display && DISPLAY.test(line)) {
      signs.add('no display (the sandbox hides it)');
    }
    if (signs.size >= 3) break;
  }
  return signs.size ? [...signs].join('; ') : undefined;
}

/** How the model asks again, by the tool that ran it: a shell command, or a code block (the code harness's execute). */
const ASK_AGAIN = {
  shell: 'call shell again with the same command',
  execute: 'call execute again with the same code',
} as const;

/** The note the model gets after a refused command's (or block's) output: what it may ask for, and that a person decides. */
export function refusalNote(sign: string, policy: SandboxPolicy, tool: keyof typeof ASK_AGAIN = 'shell'): string {
  const roots = writableRoots(policy);
  const writable = roots.length ? roots.join(', ') : 'nothing (read-only)';
  return (
    `[the sandbox may have refused this: ${sign}. Sandbox ${policy.mode}: writable ${writable} and a private temp dir; network ${policy.network ? 'on' : 'off'}. ` +
    `If the task really needs more, ${ASK_AGAIN[tool]}, escalate: {write: [absolute paths], network: true} (only what it needs) and a reason; a person decides.]`
  );
}
