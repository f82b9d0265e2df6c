/**
 * Keys after a click reach Chromium's page after the click (issue 26), one judged round with
 * five busy loops, and what a click owes as Chromium's tree says. The full count (four
 * rounds) is click-then-type.opt-in.desktop.test.ts (`npm run test:opt-in`).
 */
import { clickThenTypeCases } from './click-then-type.cases.js';

clickThenTypeCases(1);
