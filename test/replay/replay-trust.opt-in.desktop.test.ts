/**
 * Opt-in (`npm run test:opt-in`; CI leaves it out, see vitest.config.ts): issue 28 item 4
 * replayed with --strict 10 times in a row on the probe desktop, every one exits 0 with
 * the text typed — the repetition that catches a false divergence showing once in several
 * runs. CI's replay-trust.desktop.test.ts runs the same case with one replay.
 */
import { useProbeDesktop } from './probe-desktop.js';
import { noFalseDivergence } from './no-false-divergence.cases.js';

noFalseDivergence(useProbeDesktop(), 10);
