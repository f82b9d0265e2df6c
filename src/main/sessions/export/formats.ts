/** The export formats, in a module of their own so the CLI can list them without loading the renderers; the list is shared/export-formats.ts's. */
export { CLI_EXPORT_FORMATS, EXPORT_FORMATS, type CliExportFormat, type ExportFormat } from '../../../shared/export-formats.js';

/** Said when `--format replay` is used: it still writes the animation. */
export const REPLAY_FORMAT_DEPRECATED =
  '--format replay is deprecated: it is now --format animation (an animated WebP; webp and gif work too). "deskpilot replay <id>" re-runs a run; "--format trajectory" exports what it replays';
