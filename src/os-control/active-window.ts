import { execFile } from 'node:child_process';
import type { ActiveWindow } from './window-info.js';
import { activeWindowOverSocket } from './x11/active-window.js';
import { x11Session } from './x11/session.js';

/**
 * The focused window's title and application name, for the risk rules (typing into
 * a terminal) and the user rules (window patterns). Each platform asks the OS the
 * cheapest way it can; anything that fails — no display, no permission, a missing
 * tool, a timeout — yields `undefined` ("unknown"), never an exception: the policy
 * treats an unknown window conservatively.
 *
 * - X11: over the display's X session (x11/session.ts, x11/active-window.ts): the _NET_ACTIVE_WINDOW of the
 *   root window, then the window's WM_CLASS, _NET_WM_NAME and _NET_WM_PID; the input focus
 *   when no EWMH window manager runs. `xprop` (+ `xdotool getwindowfocus`) when that
 *   connection cannot answer.
 * - macOS: `osascript` + System Events (needs the Accessibility permission for titles).
 * - Windows: PowerShell + user32 GetForegroundWindow.
 */

export type { ActiveWindow } from './window-info.js';

export interface ActiveWindowOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Per OS query; default 1500 ms. */
  timeoutMs?: number;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      execFile(cmd, args, { env, timeout: timeoutMs, encoding: 'utf8', windowsHide: true, maxBuffer: 1 << 20 }, (error, stdout) => {
        resolve(error ? undefined : stdout);
      });
    } catch {
      resolve(undefined);
    }
  });
}

/** The inside of an xprop string (quoted C-style; non-ASCII may come as octal escapes of UTF-8 bytes). */
export function unquoteXprop(body: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '\\' && i + 1 < body.length) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1));
      if (oct) {
        bytes.push(parseInt(oct[0], 8));
        i += oct[0].length;
        continue;
      }
      const next = body[++i]!;
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r' };
      bytes.push(...Buffer.from(map[next] ?? next, 'utf8'));
      continue;
    }
    bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses `xprop -notype` lines: `WM_CLASS = "xterm", "XTerm"`, `_NET_WM_NAME = "…"`, `_NET_WM_PID = 123`. */
export function parseXpropWindow(output: string, windowId?: string): ActiveWindow | undefined {
  const prop = (name: string) => new RegExp(`^${name}\\s*=\\s*(.*)$`, 'm').exec(output)?.[1]?.trim();
  const strings = (value: string | undefined) => (value ? [...value.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unquoteXprop(m[1]!)) : []);
  const wmClass = strings(prop('WM_CLASS'));
  const title = strings(prop('_NET_WM_NAME'))[0] ?? strings(prop('WM_NAME'))[0] ?? '';
  const pid = Number(prop('_NET_WM_PID'));
  if (!wmClass.length && !title) return undefined;
  const instance = wmClass[0];
  const app = wmClass[1] ?? instance ?? '';
  return {
    title,
    app,
    ...(instance && instance !== app ? { instance } : {}),
    ...(windowId ? { windowId } : {}),
    ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}),
  };
}

async function x11ActiveWindow(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ActiveWindow | undefined> {
  if (!env.DISPLAY) return undefined;
  // The display's X session first (x11/active-window.ts: ~1 ms instead of two xprop processes);
  // xprop when it cannot answer (a display it cannot reach, an auth it does not speak, a hang).
  try {
    return await activeWindowOverSocket(x11Session(env.DISPLAY, env.XAUTHORITY), { timeoutMs });
  } catch {
    return x11ActiveWindowByXprop(env, timeoutMs);
  }
}

/** The same answer from two `xprop` processes (and `xdotool getwindowfocus` without an EWMH window manager). */
export async function x11ActiveWindowByXprop(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ActiveWindow | undefined> {
  if (!env.DISPLAY) return undefined;
  // xprop prints UTF-8 titles as they are only under a UTF-8 locale.
  const xenv = { ...env, LC_ALL: 'C.UTF-8' };
  const root = await run('xprop', ['-root', '-notype', '_NET_ACTIVE_WINDOW'], xenv, timeoutMs);
  let id = root ? /window id # (0x[0-9a-f]+)/i.exec(root)?.[1] : undefined;
  if (!id || /^0x0+$/i.test(id)) {
    // No EWMH window manager: ask for the X input focus instead (walked up to the client window).
    const focus = (await run('xdotool', ['getwindowfocus'], xenv, timeoutMs))?.trim();
    id = focus && /^\d+$/.test(focus) ? `0x${Number(focus).toString(16)}` : undefined;
  }
  if (!id) return undefined;
  const out = await run('xprop', ['-id', id, '-notype', 'WM_CLASS', '_NET_WM_NAME', 'WM_NAME', '_NET_WM_PID'], xenv, timeoutMs);
  return out ? parseXpropWindow(out, String(parseInt(id, 16))) : undefined;
}

const MAC_SCRIPT = `
tell application "System Events"
  set p to first application process whose frontmost is true
  set n to name of p
  set t to ""
  try
    set t to name of front window of p
  end try
  set i to unix id of p
end tell
return n & linefeed & i & linefeed & t`;

async function macActiveWindow(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ActiveWindow | undefined> {
  const out = await run('osascript', ['-e', MAC_SCRIPT], env, timeoutMs);
  return out ? parseAppPidTitle(out) : undefined;
}

/** The scripts' answer, "app LF pid LF title" (the title may hold line breaks); no app: unknown. */
function parseAppPidTitle(out: string): ActiveWindow | undefined {
  const [app, pid, ...title] = out.replace(/\n$/, '').split('\n');
  if (!app) return undefined;
  const n = Number(pid);
  return { app, title: title.join('\n'), ...(Number.isInteger(n) && n > 0 ? { pid: n } : {}) };
}

const WINDOWS_SCRIPT = `
$ErrorActionPreference = 'Stop'
Add-Type @"
using System; using System.Text; using System.Runtime.InteropServices;
public static class DpFg {
  [DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow();
  [DllImport("user32.dll", CharSet=CharSet.Unicode)] public static extern int GetWindowText(IntPtr h, StringBuilder s, int n);
  [DllImport("user32.dll")] public static extern uint GetWindowThreadProcessId(IntPtr h, out uint pid);
}
"@
$h = [DpFg]::GetForegroundWindow()
$sb = New-Object System.Text.StringBuilder 1024
[void][DpFg]::GetWindowText($h, $sb, 1024)
$procId = 0
[void][DpFg]::GetWindowThreadProcessId($h, [ref]$procId)
$name = (Get-Process -Id $procId).ProcessName
[Console]::OutputEncoding = [Text.Encoding]::UTF8
Write-Output ($name + [char]10 + $procId + [char]10 + $sb.ToString())`;

async function windowsActiveWindow(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ActiveWindow | undefined> {
  const out = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_SCRIPT], env, Math.max(timeoutMs, 4_000));
  // PowerShell ends lines with CR LF.
  return out ? parseAppPidTitle(out.replace(/\r/g, '')) : undefined;
}

/** The focused window now, or undefined when the OS does not tell. Never throws. */
export async function getActiveWindow(options: ActiveWindowOptions = {}): Promise<ActiveWindow | undefined> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? 1_500;
  try {
    switch (options.platform ?? process.platform) {
      case 'darwin':
        return await macActiveWindow(env, timeoutMs);
      case 'win32':
        return await windowsActiveWindow(env, timeoutMs);
      default:
        return await x11ActiveWindow(env, timeoutMs);
    }
  } catch {
    return undefined;
  }
}
