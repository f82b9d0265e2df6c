/**
 * macOS asks the person to grant Screen Recording (to see the screen) and
 * Accessibility (to move the mouse and type). This turns their state into what to
 * tell the person and which System Settings pane to open.
 */
export interface PermissionState {
  screen: 'granted' | 'denied' | 'restricted' | 'not-determined' | 'unknown';
  accessibility: boolean;
}

export interface PermissionAdvice {
  missing: ('screen' | 'accessibility')[];
  message: string;
  panes: { label: string; url: string }[];
}

export const SCREEN_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture';
export const ACCESSIBILITY_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility';

export function permissionAdvice(state: PermissionState): PermissionAdvice | null {
  const missing: PermissionAdvice['missing'] = [];
  if (state.screen !== 'granted') missing.push('screen');
  if (!state.accessibility) missing.push('accessibility');
  if (missing.length === 0) return null;
  const lines = ['DeskPilot needs two macOS permissions to work:'];
  const panes: PermissionAdvice['panes'] = [];
  if (missing.includes('screen')) {
    lines.push('• Screen Recording — so the agent can see the screen. System Settings → Privacy & Security → Screen Recording → turn on DeskPilot, then quit and reopen DeskPilot.');
    panes.push({ label: 'Open Screen Recording settings', url: SCREEN_PANE });
  }
  if (missing.includes('accessibility')) {
    lines.push('• Accessibility — so approved actions can move the mouse and type. System Settings → Privacy & Security → Accessibility → turn on DeskPilot.');
    panes.push({ label: 'Open Accessibility settings', url: ACCESSIBILITY_PANE });
  }
  return { missing, message: lines.join('\n'), panes };
}
