/** The export formats, in a module of their own so the CLI can list them without loading the renderers. */
export const EXPORT_FORMATS = ['md', 'html', 'json', 'webp', 'gif'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
