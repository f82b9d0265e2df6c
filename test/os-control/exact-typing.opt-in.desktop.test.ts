/**
 * Opt-in (`npm run test:opt-in`; CI leaves it out, see vitest.config.ts): issue 11's exact
 * typing with the repetitions it was measured with — every xterm case twice, 8 fresh
 * typists under four busy loops. exact-typing.desktop.test.ts runs the same cases once and
 * with 3 typists in CI.
 */
import { exactTypingCases } from './exact-typing.cases.js';

exactTypingCases({ xterm: 2, freshTypists: 8 });
