/**
 * The one list of a run's export formats. `deskpilot sessions export --format` takes
 * them all; the app's and serve's run page (end card, History's run view) offers those
 * with a button in `PAGE_EXPORTS`, and `sessions.export` accepts those only. Here, below
 * both sides, so the bridge contract, the page and the CLI read the same names.
 */

/** The renderers of sessions/export (one file each; md writes its images beside it). */
export const EXPORT_FORMATS = ['md', 'html', 'json', 'webp', 'gif', 'animation'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Formats `deskpilot sessions export` offers besides the renderers above: `trajectory`
 * (a replayable folder, written by agent/replay: it needs OCR, above the sessions layer)
 * and `replay`, the animation's old name, kept as a deprecated alias that says so.
 */
export const CLI_EXPORT_FORMATS = [...EXPORT_FORMATS, 'trajectory', 'replay'] as const;
export type CliExportFormat = (typeof CLI_EXPORT_FORMATS)[number];

/** The page's exports, in button order, with the button's words: a person's choice of the CLI's formats (json, webp, gif are the CLI's only). */
export const PAGE_EXPORTS = {
  html: { label: 'HTML report', title: 'One self-contained page: every step, its screenshot and what was decided' },
  md: { label: 'Markdown', title: 'A Markdown file beside a folder of its screenshots' },
  animation: { label: 'Animation', title: 'An animated WebP of the run, each action drawn on its screen' },
  trajectory: { label: 'Trajectory', title: 'A replayable folder: what `deskpilot replay` runs again' },
} as const satisfies Partial<Record<CliExportFormat, { label: string; title: string }>>;
export type PageExportFormat = keyof typeof PAGE_EXPORTS;
export const PAGE_EXPORT_FORMATS = Object.keys(PAGE_EXPORTS) as [PageExportFormat, ...PageExportFormat[]];
