/**
 * Target resolution on the GTK part of the labelled set (issue 33 item 4): gnome-calculator,
 * mousepad, gedit and gtk3-widget-factory, each on a 1920×1080 Xvfb with its accessibility on.
 * The truth of each item is a box stored with the screenshot it was checked on by eye
 * (bench/data/grounding-gtk, bench/lib/gtk-grounding.ts) — not the live tree or OCR measured.
 * Before an app is scored its screen is compared with the stored one: a layout that moved
 * makes the boxes stale, and the app is reported as skipped, not scored.
 *
 * Items per control: its name as the screen shows it (when no other control reads the same),
 * a hand-written paraphrase where one is stored, and "the <role> right of <name>" built from
 * the stored boxes. Scored by the same resolvers and table as grounding.bench.ts, per app.
 *
 *   npm run bench -- grounding-gtk [--ocr-every 2] [--apps gedit,mousepad] [--verbose] [--grounder-profile NAME]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { terminateOcr } from '../src/os-control/ocr/index.js';
import { startAccessibilityBus } from '../test/harness/a11y-bus.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { grounderOf, report, scoreItem, stringArg, type Outcome } from './lib/grounding-score.js';
import { DATA_DIR, GTK_APPS, GTK_SCREEN, gtkItems, MAX_SCREEN_DIFFERENCE, readLabelFile, screenDifference, screenPng, startGtkBenchApp, type GtkApp } from './lib/gtk-grounding.js';
import { numberArg } from './lib/stats.js';

async function main(): Promise<void> {
  const ocrEvery = Math.max(1, numberArg('ocr-every', 1));
  const verbose = process.argv.includes('--verbose');
  const apps = (stringArg('apps')?.split(',') ?? [...GTK_APPS]) as GtkApp[];
  const grounderName = stringArg('grounder-profile');
  const grounder = await grounderOf(grounderName);
  const load0 = loadavg()[0]!;
  const xvfb = await startXvfb(GTK_SCREEN);
  const bus = await startAccessibilityBus(xvfb);
  process.env.DISPLAY = xvfb.display;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../src/os-control/index.js');
  const computer = createComputer();
  await computer.warmUp();
  const all: Outcome[] = [];
  const started = Date.now();
  try {
    for (const app of apps) {
      const file = readLabelFile(app);
      const stored = readFileSync(path.join(DATA_DIR, `${app}.png`));
      const running = await startGtkBenchApp(bus.xvfb, app);
      const outcomes: Outcome[] = [];
      try {
        // The window settles its size and the tree fills in after it maps: wait until the screen is the stored one.
        let difference = 1;
        for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
          difference = await screenDifference(screenPng(bus.xvfb), stored, file.window);
          if (difference <= MAX_SCREEN_DIFFERENCE) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        if (difference > MAX_SCREEN_DIFFERENCE) {
          process.stdout.write(`\n${app}: SKIPPED — the screen differs from the stored one in ${(100 * difference).toFixed(2)}% of the window's pixels (limit ${100 * MAX_SCREEN_DIFFERENCE}%): the stored boxes may be stale; label again (bench/label-gtk-grounding.ts)\n`);
          continue;
        }
        const items = gtkItems(file);
        for (const item of items) {
          await scoreItem(item, file.labels[item.target]!.bounds, { computer, ...(grounder ? { grounder } : {}), withOcr: item.target % ocrEvery === 0, verbose }, outcomes);
        }
        process.stdout.write(`\n=== ${app}: ${items.length} items (screen ${(100 * difference).toFixed(2)}% off the stored one), ${((Date.now() - started) / 1000).toFixed(0)} s so far, load ${loadavg()[0]!.toFixed(1)}`);
        report(outcomes, grounderName);
        all.push(...outcomes);
      } finally {
        await running.stop();
      }
    }
  } finally {
    await terminateOcr();
    await bus.stop();
  }
  process.stdout.write(`\n=== all GTK apps`);
  report(all, grounderName);
  process.stdout.write(`\n${all.filter((o) => o.resolver === 'tree').length} items on ${GTK_SCREEN.width}×${GTK_SCREEN.height}; OCR alone on the items of every ${ocrEvery === 1 ? '' : `${ocrEvery}th `}control; ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (1-min average)\n`);
  // The X server goes with this process (xvfb.ts's exit hook), as in grounding.bench.ts.
  process.exit(0);
}

await main();
