import { apiKeyEnvName } from '../agent/providers/index.js';
import { BUILT_IN_PROFILES } from '../config/index.js';
import { PROVIDERS } from '../../shared/providers.js';
import { firstLine } from './checks-linux.js';
import type { CheckOutcome, DoctorCheck } from './types.js';
import { own } from '../../shared/own.js';

/** The lowest Node of each supported major line (package.json "engines": ^20.19.0 || ^22.13.0 || >=24). */
export const NODE_MINIMUMS: Readonly<Record<number, [number, number]>> = { 20: [20, 19], 22: [22, 13] };
const NODE_FIRST_UNBOUNDED = 24;

/** 1. Node itself: vite 8, eslint 10 and jsdom need 20.19+ (or 22.13+, 24+). */
export const nodeCheck: DoctorCheck = {
  id: 'node',
  required: true,
  async run(p) {
    const m = /^v?(\d+)\.(\d+)/.exec(p.nodeVersion);
    const [major, minor] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    const floor = NODE_MINIMUMS[major];
    const fine = major >= NODE_FIRST_UNBOUNDED || (floor !== undefined && minor >= floor[1]);
    if (fine) return { id: 'node', status: 'ok', detail: `Node ${p.nodeVersion}` };
    return { id: 'node', status: 'fail', detail: `Node ${p.nodeVersion} is too old or an unsupported line`, fix: 'install Node 20.19+, 22.13+ or 24+ (e.g. from nodejs.org or NodeSource)' };
  },
};

/**
 * 2. The data folder holds screenshots of the screen and the run logs: it should be
 * readable by its owner only. A folder that does not exist yet is fine (created on first run).
 */
export const dataFolderCheck: DoctorCheck = {
  id: 'data-folder',
  required: true,
  async run(p) {
    const info = await p.stat(p.home);
    if (!info) return { id: 'data-folder', status: 'ok', detail: `${p.home} does not exist yet (created on the first run)` };
    if (!info.isDirectory) return { id: 'data-folder', status: 'fail', detail: `${p.home} is not a folder`, fix: `move it away, or set DESKPILOT_HOME to a folder` };
    if (p.platform === 'win32') return { id: 'data-folder', status: 'ok', detail: p.home };
    const uid = p.uid();
    if (uid !== undefined && info.uid !== uid) {
      return { id: 'data-folder', status: 'fail', detail: `${p.home} belongs to uid ${info.uid}, not to you (uid ${uid})`, fix: `sudo chown -R ${uid} "${p.home}"` };
    }
    const mode = info.mode & 0o777;
    if (mode & 0o077) {
      return {
        id: 'data-folder',
        status: 'warn',
        detail: `${p.home} is mode ${mode.toString(8)}: other users can read its screenshots and logs`,
        fix: `chmod 700 "${p.home}"`,
      };
    }
    return { id: 'data-folder', status: 'ok', detail: `${p.home} (mode ${mode.toString(8)})` };
  },
};

/**
 * 3. Where the desktop app stores API keys (warn only: keys from the environment work
 * without it, and CI has no keychain). Linux: the Secret Service (GNOME Keyring,
 * KWallet) on the session bus; macOS: the login keychain; Windows: DPAPI, always there.
 */
export const keychainCheck: DoctorCheck = {
  id: 'keychain',
  required: false,
  async run(p) {
    const id = 'keychain';
    const envFix = 'set the key in the environment instead (e.g. ANTHROPIC_API_KEY)';
    switch (p.platform) {
      case 'win32':
        return { id, status: 'ok', detail: 'Windows DPAPI' };
      case 'darwin': {
        const r = await p.run('security', ['default-keychain'], 5_000);
        return r.code === 0
          ? { id, status: 'ok', detail: `macOS keychain ${firstLine(r.stdout).replace(/"/g, '')}` }
          : { id, status: 'warn', detail: `no default keychain: ${firstLine(r.stderr)}`, fix: `open Keychain Access and create a login keychain, or ${envFix}` };
      }
      case 'linux': {
        if (!p.env.DBUS_SESSION_BUS_ADDRESS?.trim() || !(await p.which('dbus-send'))) {
          return { id, status: 'warn', detail: 'no session bus, so no Secret Service: the app cannot store keys', fix: `run a desktop session with GNOME Keyring or KWallet, or ${envFix}` };
        }
        const r = await p.run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.ListNames'], 5_000);
        const names = r.stdout;
        if (names.includes('"org.freedesktop.secrets"')) return { id, status: 'ok', detail: 'Secret Service on the session bus' };
        if (/"org\.kde\.kwalletd\d*"/.test(names)) return { id, status: 'ok', detail: 'KWallet on the session bus' };
        const activatable = await p.run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.ListActivatableNames'], 5_000);
        if (activatable.stdout.includes('"org.freedesktop.secrets"')) return { id, status: 'ok', detail: 'Secret Service (started on demand)' };
        return { id, status: 'warn', detail: 'no Secret Service or KWallet on the session bus: the app cannot store keys', fix: `install and unlock gnome-keyring, or ${envFix}` };
      }
      default:
        return { id, status: 'warn', detail: `no keychain support known for ${p.platform}`, fix: envFix };
    }
  },
};

/** Hosts that are this machine: a model server there must be running for a run to work. */
export function isLoopbackUrl(url: string): { host: string; port: number } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback) return undefined;
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

/**
 * 4. Provider keys and loopback model servers (warn only: a run can take the key and
 * URL from flags, and CI has no keys). One line per profile that matters here: the
 * default one and the ones the user wrote; built-in profiles nobody chose (the
 * local ollama and LM Studio ones on every machine) would only be noise.
 */
export const providersCheck: DoctorCheck = {
  id: 'providers',
  required: false,
  async run(p) {
    const config = await p.loadConfig();
    const out: CheckOutcome[] = [];
    const selected = config.defaultProfile;
    for (const [name, profile] of Object.entries(config.profiles)) {
      const builtIn = own(BUILT_IN_PROFILES, name);
      if (name !== selected && builtIn && JSON.stringify(builtIn) === JSON.stringify(profile)) continue;
      const id = `profile:${name}`;
      const mark = name === selected ? ' (default)' : '';
      const baseUrl = profile.baseUrl ?? (p.env[PROVIDERS[profile.provider].baseUrlEnv] || undefined);
      const local = baseUrl ? isLoopbackUrl(baseUrl) : undefined;
      if (local) {
        const r = await p.tcpConnect(local.host, local.port, 1_500);
        out.push(
          r.ok
            ? { id, status: 'ok', detail: `${profile.provider} ${profile.model}${mark}: ${baseUrl} is listening` }
            : { id, status: 'warn', detail: `${profile.provider} ${profile.model}${mark}: nothing listens at ${baseUrl} (${r.error})`, fix: `start the model server (e.g. \`ollama serve\`, LM Studio's server), or fix baseUrl in ${p.home}/config.json` },
        );
        continue;
      }
      const envName = apiKeyEnvName(profile);
      if (!envName) {
        out.push({ id, status: 'ok', detail: `${profile.provider} ${profile.model}${mark}: no key needed${baseUrl ? ` (${baseUrl})` : ''}` });
      } else if (p.env[envName]?.trim()) {
        out.push({ id, status: 'ok', detail: `${profile.provider} ${profile.model}${mark}: key found in ${envName}` });
      } else {
        out.push({ id, status: 'warn', detail: `${profile.provider} ${profile.model}${mark}: ${envName} is not set`, fix: `export ${envName}=… (or store the key in the app's settings)` });
      }
    }
    return out;
  },
};

/**
 * 5. macOS privacy permissions, as the terminal running the CLI holds them (the
 * desktop app asks for its own at start).
 */
export const macPermissionsCheck: DoctorCheck = {
  id: 'macos-permissions',
  required: true,
  async run(p) {
    if (p.platform !== 'darwin') return { id: 'macos-permissions', status: 'skip', detail: 'not needed on this OS' };
    const state = await p.macPermissions();
    const pane = 'System Settings → Privacy & Security →';
    const out: CheckOutcome[] = [];
    const one = (id: string, value: 'granted' | 'denied' | 'unknown', what: string, where: string) => {
      if (value === 'granted') out.push({ id, status: 'ok', detail: `${what} granted` });
      else if (value === 'denied') out.push({ id, status: 'fail', detail: `${what} not granted to this terminal`, fix: `${pane} ${where} → turn on your terminal app, then reopen it` });
      else out.push({ id, status: 'warn', detail: `${what}: could not be checked from here`, fix: `${pane} ${where} → make sure your terminal app (or DeskPilot) is on` });
    };
    one('screen-recording', state.screen, 'Screen Recording', 'Screen Recording');
    one('accessibility', state.accessibility, 'Accessibility', 'Accessibility');
    return out;
  },
};
