/**
 * Issue 26 items 1–3: the screenshot taken after an action — perform, settle, observe,
 * as the runner does every step — shows the app's answer to it, on a real desktop with
 * two busy loops loading the 2 cores (where the old 75 ms quiet window returned first):
 *  - Chromium (the probe page, renderer accessibility on as in a recorded run): the whole
 *    of `Replay ✓ Grüße 7`, three of its characters typed on freshly remapped spare
 *    keycodes, is in the field's pixels of the observation (the old settle showed
 *    "Replay " alone);
 *  - mousepad's GTK Save dialog: after a path is typed into Name, the observation draws
 *    Save as it looks once the accessibility tree reports it enabled (the old settle
 *    showed it insensitive).
 * Content is compared, never a time: the field's or the button's pixels in the
 * observation against the same pixels once the app has provably finished (the page's
 * value, the tree's state) and the screen has been still for half a second.
 *
 * CI runs each case 2, 2 and 1 times; settle-input.opt-in.desktop.test.ts repeats them 8, 6
 * and 4 times (`npm run test:opt-in`).
 */
import { settleInputCases } from './settle-input.cases.js';

settleInputCases({ chromium: 2, mousepad: 2, dialog: 1 });
