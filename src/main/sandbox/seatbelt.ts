import type { HiddenPath } from './hidden-paths.js';
import { writableRoots, type SandboxPolicy } from './policy.js';

/** A path as a Seatbelt (SBPL, a Scheme dialect) string literal. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The Seatbelt profile `sandbox-exec -p` runs a command under on macOS (pure). Not yet
 * run on a Mac (README): its text is what the tests check. Later rules win over earlier
 * ones, so the denials of .git folders and secrets come after the writes they narrow.
 * `tmpdir` is the command's private temp dir (made per command, removed after).
 */
export function seatbeltProfile(policy: SandboxPolicy, hidden: readonly HiddenPath[], gitDirs: readonly string[], tmpdir: string): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '; start programs, signal and inspect only what runs in this sandbox',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '; read the file system (secrets are denied below), system facts and the terminal',
    '(allow file-read*)',
    '(allow sysctl-read)',
    '(allow pseudo-tty)',
    '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
    '(allow ipc-posix-shm-read-data ipc-posix-sem)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
    '; writable: the private temp dir and the writable roots',
    `(allow file-write* (subpath ${sbplString(tmpdir)}))`,
  ];
  for (const root of writableRoots(policy)) lines.push(`(allow file-write* (subpath ${sbplString(root)}))`);
  for (const git of gitDirs) lines.push(`(deny file-write* (subpath ${sbplString(git)}))`);
  if (hidden.length) lines.push('; secrets: neither read nor written');
  for (const secret of hidden) lines.push(`(deny file-read* file-write* (${secret.dir ? 'subpath' : 'literal'} ${sbplString(secret.path)}))`);
  if (policy.network) {
    lines.push('; network on', '(allow network-outbound)', '(allow network-inbound)', '(allow system-socket)',
      '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.SystemConfiguration.configd"))');
  }
  return `${lines.join('\n')}\n`;
}
