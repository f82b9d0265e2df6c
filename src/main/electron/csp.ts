/**
 * The renderer's Content-Security-Policy: scripts and styles from the app only, images
 * also from data:/blob: (live frames) and deskpilot-file: (run screenshots), no
 * network beyond the page's own origin, no plugins, no <base>, no form posts. The same
 * string is the <meta> tag of src/renderer/index.html (a test ties the two).
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: deskpilot-file:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
