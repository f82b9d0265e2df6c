import type { ElementState } from '../../../shared/elements.js';

/**
 * AT-SPI's role numbers (AtspiRole in at-spi2-core's atspi-constants.h) and the names
 * libatspi gives them. The number is what every toolkit agrees on: GTK 4 answers
 * GetRoleName with its own words ("button" for PUSH_BUTTON 43), GTK 3 with ATK's.
 * Checked against GTK 3 (gtk3-widget-factory: GetRole vs GetRoleName agree on all 28 roles it uses).
 */
export const ATSPI_ROLES: readonly string[] = [
  'invalid', 'accelerator label', 'alert', 'animation', 'arrow', 'calendar', 'canvas', 'check box', 'check menu item',
  'color chooser', 'column header', 'combo box', 'date editor', 'desktop icon', 'desktop frame', 'dial', 'dialog',
  'directory pane', 'drawing area', 'file chooser', 'filler', 'focus traversable', 'font chooser', 'frame', 'glass pane',
  'html container', 'icon', 'image', 'internal frame', 'label', 'layered pane', 'list', 'list item', 'menu', 'menu bar',
  'menu item', 'option pane', 'page tab', 'page tab list', 'panel', 'password text', 'popup menu', 'progress bar',
  'push button', 'radio button', 'radio menu item', 'root pane', 'row header', 'scroll bar', 'scroll pane', 'separator',
  'slider', 'spin button', 'split pane', 'status bar', 'table', 'table cell', 'table column header', 'table row header',
  'tearoff menu item', 'terminal', 'text', 'toggle button', 'tool bar', 'tool tip', 'tree', 'tree table', 'unknown',
  'viewport', 'window', 'extended', 'header', 'footer', 'paragraph', 'ruler', 'application', 'autocomplete', 'editbar',
  'embedded', 'entry', 'chart', 'caption', 'document frame', 'heading', 'page', 'section', 'redundant object', 'form',
  'link', 'input method window', 'table row', 'tree item', 'document spreadsheet', 'document presentation',
  'document text', 'document web', 'document email', 'comment', 'list box', 'grouping', 'image map', 'notification',
  'info bar', 'level bar', 'title bar', 'block quote', 'audio', 'video', 'definition', 'article', 'landmark', 'log',
  'marquee', 'math', 'rating', 'timer', 'static', 'math fraction', 'math root', 'subscript', 'superscript',
  'description list', 'description term', 'description value', 'footnote', 'content deletion', 'content insertion',
  'mark', 'suggestion', 'push button menu',
];

export function roleName(role: number): string {
  return ATSPI_ROLES[role] ?? 'unknown';
}

/** AtspiStateType bit numbers (the `au` of GetState is a 64-bit set in two 32-bit words). */
export const ATSPI_STATE = {
  active: 1,
  armed: 2,
  busy: 3,
  checked: 4,
  collapsed: 5,
  defunct: 6,
  editable: 7,
  enabled: 8,
  expandable: 9,
  expanded: 10,
  focusable: 11,
  focused: 12,
  modal: 16,
  multiLine: 17,
  pressed: 20,
  selectable: 22,
  selected: 23,
  sensitive: 24,
  showing: 25,
  visible: 30,
  /**
   * The element's children are made on demand and may be countless (LibreOffice Calc's
   * sheet: 1,048,576 rows × 16,384 columns of cells): a client must not list them
   * (GetChildren). Calc answered such a call by freezing for good.
   */
  managesDescendants: 31,
  indeterminate: 32,
  readOnly: 43,
} as const;

export type AtspiStateName = keyof typeof ATSPI_STATE;

export function hasState(words: readonly number[], state: AtspiStateName): boolean {
  const bit = ATSPI_STATE[state];
  const word = words[bit >> 5] ?? 0;
  return ((word >>> (bit & 31)) & 1) === 1;
}

/**
 * AT-SPI states → DeskPilot's. `visible` needs SHOWING (mapped, on screen) and VISIBLE;
 * `showingReliable` false is for toolkits that never set SHOWING below the window
 * (GTK 4.8: observed on gnome-calculator 43, every widget VISIBLE and none SHOWING) —
 * there VISIBLE alone is all we have.
 */
export function elementStates(words: readonly number[], role: string, showingReliable: boolean): ElementState[] {
  const s = (n: AtspiStateName) => hasState(words, n);
  const out: ElementState[] = [];
  if (s('focused')) out.push('focused');
  if (s('focusable')) out.push('focusable');
  if (s('enabled') || s('sensitive')) out.push('enabled');
  if (s('checked')) out.push('checked');
  if (s('indeterminate')) out.push('mixed');
  if (s('pressed')) out.push('pressed');
  if (s('selected')) out.push('selected');
  if (s('expanded')) out.push('expanded');
  if (s('expandable') && !s('expanded')) out.push('collapsed');
  if (s('editable')) out.push('editable');
  if (s('readOnly')) out.push('readonly');
  if (s('multiLine')) out.push('multiline');
  if (role === 'password text') out.push('password');
  if (s('modal')) out.push('modal');
  if (s('active')) out.push('active');
  if (s('visible') && (s('showing') || !showingReliable)) out.push('visible');
  return out;
}
