import { useApp } from '../bridge/context.js';
import { pagePlatform, type DesktopPlatform } from './key-names.js';

/** The platform of the machine the agent acts on, as the service says it; the page's own until settings have loaded. */
export function useDesktopPlatform(): DesktopPlatform {
  return useApp((s) => s.settings?.platform) ?? pagePlatform();
}
