/**
 * On Linux the agent needs an X display (nut.js aborts the whole process without one),
 * so say so clearly before loading it. Returns an error message, or undefined when fine.
 */
export function missingDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'linux' || env.DISPLAY?.trim()) return undefined;
  return env.WAYLAND_DISPLAY
    ? 'DeskPilot needs an X11 session (or XWayland with DISPLAY set); Wayland alone is not supported yet'
    : 'no X display: DISPLAY is not set (run inside a desktop session, or start Xvfb and set DISPLAY)';
}
