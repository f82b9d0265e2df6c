import os from 'node:os';
import path from 'node:path';

/**
 * All user data (config, sessions, logs) lives under one folder: ~/.deskpilot, or
 * DESKPILOT_HOME when set (tests use a temporary one). The Electron app uses it too.
 */
export function deskpilotHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.DESKPILOT_HOME?.trim();
  return path.resolve(fromEnv ? fromEnv : path.join(os.homedir(), '.deskpilot'));
}

export const homePaths = (home = deskpilotHome()) => ({
  home,
  config: path.join(home, 'config.json'),
  sessions: path.join(home, 'sessions'),
  logs: path.join(home, 'logs'),
  secrets: path.join(home, 'secrets.json'),
});
