/**
 * Opt-in (`npm run test:opt-in`; CI leaves it out, see vitest.config.ts): issue 26's settle
 * cases with the repetitions that showed the old settle's misses under two busy loops —
 * Chromium typing 8 runs, mousepad's Save enabled 6, the Save dialog drawn 4.
 * settle-input.desktop.test.ts runs the same cases 2, 2 and 1 times in CI.
 */
import { settleInputCases } from './settle-input.cases.js';

settleInputCases({ chromium: 8, mousepad: 6, dialog: 4 });
