/**
 * Target resolution on a labelled set (issue 33 item 4): how often each resolver of the
 * chain (agent/resolve) puts its point inside the right control, and how long it takes.
 *
 * The set: the probe page in Chromium on a 1920×1080 Xvfb with its accessibility on, two
 * pages of 60 named controls (bench/lib/grounding-items.ts), three descriptions per control
 * (its name, a paraphrase, a spatial one): 360 items. The truth of each item is the DOM's
 * box of its control, measured on the screen by the probe — never the tree or OCR measured.
 *
 * Resolvers, each run on every item on the same screen:
 *   tree   stage (a) alone          ocr    stage (b) alone (tesseract.js on the whole screen)
 *   chain  tree → OCR, no grounding model (what a run without --grounder-profile does)
 *   model  with --grounder-profile NAME: tree → OCR → that model → zoom (the profile of this
 *          machine's config; none is shipped, so without the flag these rows say so)
 * A hit is a found point inside the control's box; ambiguous and not-found answers are
 * misses, counted apart. Times are wall times of one resolveTarget call (the tree read or
 * the screen capture included), medians over the hits of each resolver.
 *
 *   npm run bench -- grounding                         all items (OCR: ~1 s a call on 2 idle cores)
 *   npm run bench -- grounding --ocr-every 4           OCR alone on every 4th item only (a busy machine)
 *   npm run bench -- grounding --grounder-profile ui-tars
 *   npm run bench -- grounding --limit 12 --verbose   the first 12 items of each page, misses named
 */
import { loadavg } from 'node:os';
import { walkElements } from '../src/shared/elements.js';
import type { DesktopComputer } from '../src/os-control/index.js';
import { terminateOcr } from '../src/os-control/ocr/index.js';
import { startAccessibilityBus } from '../test/harness/a11y-bus.js';
import { startProbe } from '../test/harness/probe/probe.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { PAGES, pageItems } from './lib/grounding-items.js';
import { grounderOf, report, scoreItem, stringArg, type Outcome } from './lib/grounding-score.js';
import { numberArg } from './lib/stats.js';

const SCREEN = { width: 1920, height: 1080 };
/** Waits until the focused window's tree names every control (Chromium updates AT-SPI after it paints). */
async function waitForNames(computer: DesktopComputer, names: readonly string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const tree = await computer.elementTree({ scope: 'focused' });
    const have = new Set(tree.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))].map((n) => n.name) : []);
    if (names.every((n) => have.has(n))) return;
    if (Date.now() > deadline) throw new Error(`the tree never named all ${names.length} controls (missing: ${names.filter((n) => !have.has(n)).slice(0, 5).join(', ')})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  const ocrEvery = Math.max(1, numberArg('ocr-every', 1));
  /** Items per page (a quick look; the set is 180 a page). */
  const limit = numberArg('limit', Infinity);
  const verbose = process.argv.includes('--verbose');
  const grounderName = stringArg('grounder-profile');
  const grounder = await grounderOf(grounderName);
  const load0 = loadavg()[0]!;
  const xvfb = await startXvfb(SCREEN);
  const bus = await startAccessibilityBus(xvfb);
  process.env.DISPLAY = xvfb.display;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const probe = await startProbe(bus.xvfb, { x: 0, y: 0, width: SCREEN.width, height: SCREEN.height, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
  const { createComputer } = await import('../src/os-control/index.js');
  const computer = createComputer();
  await computer.warmUp();
  const outcomes: Outcome[] = [];
  const started = Date.now();
  try {
    for (const [p, page] of PAGES.entries()) {
      const rename = Object.fromEntries(page.map(([name], i) => [`c${i}`, name]));
      const controls = await probe.showControls(page.length, 'hunter2', rename);
      await waitForNames(computer, page.map(([name]) => name));
      const items = pageItems(page).slice(0, limit);
      for (const item of items) {
        const truth = controls[item.target]!;
        // By control, so the sampled controls keep all three kinds of description.
        await scoreItem(item, truth, { computer, ...(grounder ? { grounder } : {}), withOcr: item.target % ocrEvery === 0, verbose }, outcomes);
      }
      process.stdout.write(`page ${p + 1}: ${items.length} items, ${((Date.now() - started) / 1000).toFixed(0)} s so far, load ${loadavg()[0]!.toFixed(1)}\n`);
    }
  } finally {
    await terminateOcr();
    await probe.close();
    await bus.stop();
  }
  report(outcomes, grounderName);
  process.stdout.write(`\n${outcomes.filter((o) => o.resolver === 'tree').length} items on ${SCREEN.width}×${SCREEN.height}; OCR alone on the items of every ${ocrEvery === 1 ? '' : `${ocrEvery}th `}control; ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (1-min average)\n`);
  // The X server goes with this process (xvfb.ts's exit hook): stopped before, nut.js's open connection to it ends the process with an XIO error and exit 1.
  process.exit(0);
}

await main();
