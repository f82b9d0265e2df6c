/**
 * What reading the accessibility tree may cost, as one documented object: an app that
 * hangs, a document with 100,000 nodes or a 10 MB text field must not stall a step.
 */
export const ACCESSIBILITY_LIMITS = {
  /** Connecting to the session or accessibility bus (a local socket answers in < 5 ms). */
  connectTimeoutMs: 2_000,
  /**
   * One call to one application. A GTK app answers in about 0.3 ms when idle; a busy
   * one (loading a file) may take a second. A hung app costs this once per call that
   * is in flight, and they are in flight together.
   */
  callTimeoutMs: 2_000,
  /** Elements per tree; gtk3-widget-factory's window has 261, a long web page thousands. */
  maxNodes: 4_000,
  /** Characters of text asked from a text element (Text.GetText end offset). */
  maxTextChars: 2_000,
  /** Applications on the bus looked at (a desktop has 10–40). */
  maxApps: 200,
} as const;
