/**
 * Does a line of typed text read like a shell command? Used by the risk rules to hold
 * "a command, then Enter" wherever it is typed — a terminal inside an editor, a Run
 * dialog, an SSH session in a browser — since the window's name cannot tell.
 *
 * A line is shell-like when, after leading wrappers (sudo, env, VAR=value, nohup, …),
 * its first word is a known command or program path, or when it uses shell syntax
 * that only a shell interprets (a pipe into a command, $( ), backticks, &&, ||, a
 * redirect to a file). Prose rarely starts with a lower-case command name followed by
 * arguments; the cost of a false positive is one question in `risky` mode.
 */

/** Commands that run, change or fetch things on Unix shells, PowerShell and cmd.exe. */
const COMMANDS = new Set(
  [
    // POSIX shells and core utilities
    'sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'csh', 'tcsh', 'busybox', 'exec', 'eval', 'source', '.', 'sudo', 'su', 'doas', 'pkexec',
    'rm', 'rmdir', 'mv', 'cp', 'ln', 'dd', 'shred', 'truncate', 'wipefs', 'mkfs', 'fdisk', 'parted', 'mount', 'umount', 'chmod', 'chown',
    'chgrp', 'chattr', 'touch', 'mkdir', 'cat', 'tee', 'echo', 'printf', 'ls', 'cd', 'pwd', 'find', 'xargs', 'grep', 'sed', 'awk', 'perl',
    'python', 'python3', 'python2', 'node', 'deno', 'bun', 'ruby', 'php', 'lua', 'tclsh', 'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat',
    'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'telnet', 'git', 'npm', 'npx', 'yarn', 'pnpm', 'pip', 'pip3', 'pipx', 'cargo', 'go', 'make',
    'apt', 'apt-get', 'dpkg', 'snap', 'flatpak', 'dnf', 'yum', 'rpm', 'zypper', 'pacman', 'apk', 'brew', 'port', 'nix', 'nix-env',
    'systemctl', 'service', 'journalctl', 'kill', 'killall', 'pkill', 'shutdown', 'reboot', 'halt', 'poweroff', 'init', 'crontab', 'at',
    'useradd', 'userdel', 'usermod', 'passwd', 'chpasswd', 'visudo', 'iptables', 'ufw', 'nft', 'export', 'unset', 'alias', 'history',
    'nohup', 'setsid', 'screen', 'tmux', 'docker', 'podman', 'kubectl', 'helm', 'terraform', 'ansible', 'tar', 'zip', 'unzip', 'gzip',
    'base64', 'xxd', 'openssl', 'gpg', 'ssh-keygen', 'xdg-open', 'open', 'osascript', 'launchctl', 'defaults', 'diskutil', 'csrutil',
    'security', 'scutil', 'env', 'vi', 'vim', 'nano', 'emacs', 'code', 'gsettings', 'dconf', 'xdotool', 'xclip', 'chsh', 'sysctl',
    'modprobe', 'insmod', 'rmmod', 'losetup', 'cryptsetup', 'lvremove', 'vgremove', 'mkswap', 'swapoff', 'fsck',
    // cmd.exe
    'cmd', 'del', 'erase', 'rd', 'copy', 'xcopy', 'robocopy', 'move', 'ren', 'rename', 'format', 'diskpart', 'attrib', 'icacls',
    'takeown', 'cacls', 'cipher', 'reg', 'regedit', 'sc', 'net', 'netsh', 'schtasks', 'taskkill', 'tasklist', 'wmic', 'bcdedit',
    'vssadmin', 'wbadmin', 'certutil', 'bitsadmin', 'mshta', 'rundll32', 'regsvr32', 'msiexec', 'start', 'set', 'setx', 'runas', 'wsl',
    'winget', 'choco', 'scoop', 'dir', 'type', 'cls',
    // PowerShell (lower-cased)
    'powershell', 'pwsh', 'iex', 'iwr', 'irm', 'invoke-expression', 'invoke-webrequest', 'invoke-restmethod', 'remove-item', 'ri',
    'set-executionpolicy', 'start-process', 'stop-process', 'new-item', 'set-content', 'add-content', 'copy-item', 'move-item',
    'get-childitem', 'set-itemproperty', 'new-itemproperty', 'remove-itemproperty', 'stop-computer', 'restart-computer', 'format-volume',
    'clear-disk', 'new-service', 'set-service', 'add-mppreference', 'set-mppreference', 'gci', 'gc', 'sl', 'cp', 'mv',
  ].map((c) => c.toLowerCase()),
);

/**
 * Command names that are also common English words starting a sentence ("Start the
 * meeting", "go home", "type your name"): they count only in lower case and with an
 * argument that looks like a shell argument (an option, a path, a variable, a number).
 */
const ENGLISH = new Set([
  'type', 'set', 'start', 'open', 'copy', 'move', 'at', 'go', 'make', 'find', 'code', 'time', 'source', 'export', 'history', 'alias',
  'screen', 'service', 'security', 'defaults', 'format', 'net', 'kill', 'touch', 'halt', 'reboot', 'shutdown', 'echo', 'cat', 'init',
  'env', 'dir', 'rename', 'print', 'sort', 'less', 'more', 'head', 'tail', 'date', 'who', 'id', 'top', 'watch', 'yes', 'sleep', 'wait',
]);

/** Words that only wrap the real command. */
const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nohup', 'time', 'exec', 'command', 'builtin', 'nice', 'ionice', 'stdbuf', 'timeout', 'xargs', 'setsid', 'caffeinate']);

/**
 * Shell syntax that prose does not use: $( ), backticks, a pipe into a word, &&, ||, a
 * redirect into a path, a here-string, a function definition (the fork bomb ":(){ :|:& };:").
 */
const SHELL_SYNTAX = /\$\(|`[^`]+`|\|\s*[\w./:-]+|&&|\|\||(?:^|\s)\d?>>?\s*[~/.$\w]|<<<|\(\)\s*\{/;

/** The first word of a line after wrappers and VAR=value assignments, lower-cased, or "". */
export function commandWord(line: string): string {
  const words = line.trim().split(/\s+/);
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      i++;
      continue;
    }
    // "sudo -u root rm": skip the wrapper and its options.
    if (WRAPPERS.has(w.toLowerCase())) {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i++;
      continue;
    }
    break;
  }
  return (words[i] ?? '').replace(/^["'(]+/, '').toLowerCase();
}

/** True when `line` reads like a command for a shell (see the file comment). */
export function looksLikeShellCommand(line: string): boolean {
  const text = line.trim();
  if (text === '' || text.length > 4_000) return text.length > 4_000 && SHELL_SYNTAX.test(text.slice(0, 4_000));
  // A prompt pasted with the command ("$ rm -rf ~", "PS C:\\> del x", "> ls").
  const body = text.replace(/^(?:\$|#|%|>|PS [^>]{0,200}>)\s+/, '');
  const word = commandWord(body);
  if (ENGLISH.has(word)) {
    const words = body.split(/\s+/);
    const at = words.findIndex((w) => w.toLowerCase() === word);
    const written = words[at] ?? '';
    const next = words[at + 1];
    if (written === word && (next === undefined || /^(?:-|\/|~|\.{1,2}\/|\$|\d+$)|[/\\]/.test(next))) return true;
    return SHELL_SYNTAX.test(body);
  }
  if (COMMANDS.has(word)) return true;
  // A program by path: ./run.sh, /usr/bin/x, ~/bin/x, C:\\tools\\x.exe.
  if (/^(?:\.{1,2}\/|\/[\w.-]+\/|~\/|[a-z]:\\)/i.test(word)) return true;
  if (/\.(?:sh|bash|ps1|bat|cmd|exe|py|pl)$/i.test(word)) return true;
  return SHELL_SYNTAX.test(body);
}
