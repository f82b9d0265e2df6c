/**
 * Is the focused window a terminal? Typing or pressing Enter there runs commands,
 * so the risk rules hold such actions. Judged from the app name the OS reports
 * (X11 WM_CLASS, macOS application name, Windows process name) and, for the few
 * consoles whose app name is generic, from the window title.
 */

const TERMINAL_APPS = new Set([
  // X11 / Linux (WM_CLASS instance or class, lowercased)
  'xterm', 'uxterm', 'rxvt', 'urxvt', 'rxvt-unicode', 'gnome-terminal', 'gnome-terminal-server', 'konsole',
  'xfce4-terminal', 'terminator', 'tilix', 'alacritty', 'kitty', 'wezterm', 'wezterm-gui', 'foot', 'footclient',
  'st', 'st-256color', 'lxterminal', 'mate-terminal', 'qterminal', 'terminology', 'guake', 'yakuake', 'tilda',
  'sakura', 'cool-retro-term', 'eterm', 'aterm', 'hyper', 'tabby', 'warp', 'ghostty', 'kgx', 'ptyxis',
  'org.gnome.console', 'org.gnome.terminal', 'org.gnome.ptyxis', 'com.mitchellh.ghostty', 'blackbox', 'contour', 'rio',
  'deepin-terminal', 'io.elementary.terminal', 'pantheon-terminal', 'roxterm', 'termite', 'zutty', 'mlterm',
  // macOS
  'terminal', 'com.apple.terminal', 'iterm', 'iterm2', 'com.googlecode.iterm2',
  // Windows (process names without .exe)
  'windowsterminal', 'windows terminal', 'cmd', 'conhost', 'openconsole', 'powershell', 'pwsh', 'powershell_ise',
  'windows powershell', 'mintty', 'putty', 'kitty_portable', 'wt', 'cmder', 'conemu', 'conemu64', 'wsl', 'bash', 'ubuntu',
]);

/** Titles that name a console even when the app name does not (conhost windows, elevated prompts). */
const TERMINAL_TITLES = [
  /^(?:administrator:\s*)?(?:command prompt|windows powershell|powershell|developer command prompt|developer powershell)\b/i,
  /\bcmd\.exe\b/i,
  /\bpowershell\.exe\b/i,
];

function normaliseApp(app: string): string {
  return app.trim().toLowerCase().replace(/\.exe$/, '').replace(/\.app$/, '');
}

export function isTerminalWindow(window: { title: string; app: string } | undefined): boolean {
  if (!window) return false;
  const app = normaliseApp(window.app);
  if (TERMINAL_APPS.has(app)) return true;
  // WM_CLASS may come as "instance.Class"/"instance, Class"; bundle ids as a.b.c
  for (const part of app.split(/[\s,]+/)) if (TERMINAL_APPS.has(part)) return true;
  return TERMINAL_TITLES.some((re) => re.test(window.title));
}
