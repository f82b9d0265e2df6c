/** The export formats, in a module of their own so the CLI can list them without loading the renderers. */
export const EXPORT_FORMATS = ['md', 'html', 'json', 'webp', 'gif', 'animation'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Formats `deskpilot sessions export` offers besides the renderers above: `trajectory`
 * (a replayable folder, written by agent/replay: it needs OCR, above this layer) and
 * `replay`, the animation's old name, kept as a deprecated alias that says so.
 */
export const CLI_EXPORT_FORMATS = [...EXPORT_FORMATS, 'trajectory', 'replay'] as const;
export type CliExportFormat = (typeof CLI_EXPORT_FORMATS)[number];

/** Said when `--format replay` is used: it still writes the animation. */
export const REPLAY_FORMAT_DEPRECATED =
  '--format replay is deprecated: it is now --format animation (an animated WebP; webp and gif work too). "deskpilot replay <id>" re-runs a run; "--format trajectory" exports what it replays';
