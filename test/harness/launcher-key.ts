/**
 * A launcher key, as a desktop's shortcut to start an app (issue 26: settle after an input
 * that starts a GTK app): openbox's own rc.xml with one more binding, F12 → a script in a
 * folder of the caller's. openbox grabs the key, so the focused app gets nothing and draws
 * nothing; what follows on screen is the started app's. The script is written by `set`
 * (once the environment the app needs is known, e.g. a bus started after the X server);
 * it writes its pid and execs the app, so `take()` gives the app's own process, the caller's to end.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LauncherKey {
  /** The rc.xml to start openbox with (XvfbOptions.openboxConfig). */
  config: string;
  /** The key to press (a key action's `keys`). */
  key: 'F12';
  /** Writes the script: `command` (argv) run with exactly `env` (plus PATH and HOME). */
  set(command: string[], env: Record<string, string>): void;
  /** The pid of the app the key started since the last take (its pid file, then removed), undefined while none wrote it. */
  take(): number | undefined;
}

const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

export function launcherKey(dir: string): LauncherKey {
  const script = join(dir, 'launch.sh');
  const pidFile = join(dir, 'launched.pid');
  const config = join(dir, 'rc.xml');
  const stock = readFileSync('/etc/xdg/openbox/rc.xml', 'utf8');
  writeFileSync(config, stock.replace('</keyboard>', `<keybind key="F12"><action name="Execute"><command>${script}</command></action></keybind>\n</keyboard>`));
  return {
    config,
    key: 'F12',
    set(command, env) {
      const all = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env };
      const lines = ['#!/bin/sh', `exec env -i ${Object.entries(all).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} sh -c 'echo $$ > "$0"; exec "$@"' ${quote(pidFile)} ${command.map(quote).join(' ')}`, ''];
      writeFileSync(script, lines.join('\n'), { mode: 0o755 });
    },
    take() {
      const text = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : '';
      if (!text) return undefined;
      rmSync(pidFile);
      return Number(text);
    },
  };
}
