export { configOnVirtualDesktop, VIRTUAL_DISPLAY_LABEL } from './virtual-desktop.js';
export { BUILT_IN_PROFILES, ConfigError, defaultConfig, loadConfig, parseConfig, resolveProfile, saveConfig } from './load-config.js';
