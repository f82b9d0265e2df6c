import fs from 'node:fs';
import path from 'node:path';

/**
 * What a sandboxed command never sees, in every sandboxed mode (docs/CONFIG.md
 * "Sandbox" lists the same): keys and tokens, DeskPilot's own data, browser profiles
 * (cookies are logins), the X cookie and the per-user runtime folder (session bus,
 * accessibility bus, keyring sockets). A folder is replaced by an empty one, a file by
 * an empty file; reading either finds nothing.
 */
const HOME_SECRETS_COMMON = [
  '.ssh', '.gnupg', '.deskpilot', '.password-store', '.aws', '.azure', '.kube', '.docker',
  '.netrc', '.git-credentials', '.npmrc', '.pypirc', '.config/gh', '.config/gcloud',
];

const HOME_SECRETS_LINUX = [
  '.local/share/keyrings', '.pki',
  // browser profiles
  '.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge',
  '.config/vivaldi', '.config/opera', 'snap/firefox', 'snap/chromium',
  '.var/app/org.mozilla.firefox', '.var/app/com.google.Chrome', '.var/app/org.chromium.Chromium',
  // X and ICE cookies
  '.Xauthority', '.ICEauthority',
];

const HOME_SECRETS_MAC = [
  'Library/Keychains', 'Library/Cookies', 'Library/Safari',
  'Library/Application Support/Google/Chrome', 'Library/Application Support/Chromium',
  'Library/Application Support/Firefox', 'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
];

/** Outside the home folder: every user's runtime folder (session and accessibility buses) and container daemons' sockets. */
const SYSTEM_SECRETS_LINUX = ['/run/user', '/run/docker.sock', '/var/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman'];

/** The files of the X display: hidden unless `--sandbox-display`. */
export interface DisplayFiles {
  /** $XAUTHORITY, else ~/.Xauthority. */
  cookie: string;
  /** The folder of X's path sockets. */
  socketDir: string;
}

export function displayFiles(home: string, env: NodeJS.ProcessEnv): DisplayFiles {
  return { cookie: env.XAUTHORITY || path.join(home, '.Xauthority'), socketDir: '/tmp/.X11-unix' };
}

/** A `unix:path=…` D-Bus address's socket (abstract addresses have no file; a new network namespace cuts them off). */
export function busSocketPath(address: string | undefined): string | undefined {
  for (const part of (address ?? '').split(';')) {
    const m = /(?:^|[:,])path=([^,]+)/.exec(part);
    if (m) return decodeURIComponent(m[1]!);
  }
  return undefined;
}

export interface HiddenSource {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** `--sandbox-display`: the X cookie stays visible. */
  display: boolean;
}

/** Every path to hide, whether or not it exists (pure: `resolveHidden` looks at the disk). */
export function hiddenCandidates(src: HiddenSource): string[] {
  const inHome = [...HOME_SECRETS_COMMON, ...(src.platform === 'darwin' ? HOME_SECRETS_MAC : HOME_SECRETS_LINUX)];
  const out = inHome.map((p) => path.join(src.home, p));
  if (src.platform !== 'darwin') out.push(...SYSTEM_SECRETS_LINUX);
  const fromEnv = [
    src.env.DESKPILOT_HOME,
    src.env.XDG_RUNTIME_DIR,
    src.env.SSH_AUTH_SOCK,
    busSocketPath(src.env.DBUS_SESSION_BUS_ADDRESS),
    src.env.XAUTHORITY,
  ];
  for (const p of fromEnv) if (p && path.isAbsolute(p)) out.push(path.resolve(p));
  const cookie = src.platform === 'darwin' ? undefined : displayFiles(src.home, src.env).cookie;
  return [...new Set(out)].filter((p) => !(src.display && p === cookie) && !(src.display && p === path.join(src.home, '.Xauthority')));
}

export interface HiddenPath {
  /** The real path (a symlinked secret is hidden where it really is). */
  path: string;
  dir: boolean;
}

/** The candidates that exist, by real path, folders first when one holds another (the outer mask hides the inner anyway). */
export function resolveHidden(candidates: readonly string[]): HiddenPath[] {
  const seen = new Map<string, HiddenPath>();
  for (const candidate of candidates) {
    let real: string;
    let stat: fs.Stats;
    try {
      real = fs.realpathSync(candidate);
      stat = fs.statSync(real);
    } catch {
      continue; // absent (or a dangling link): nothing to hide
    }
    seen.set(real, { path: real, dir: stat.isDirectory() });
  }
  return [...seen.values()].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
}
