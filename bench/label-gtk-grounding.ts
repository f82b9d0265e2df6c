/**
 * Writes the GTK part of the grounding bench's labels (bench/lib/gtk-grounding.ts), once, for
 * a person to check: each app on the bench's screen, its named controls' boxes read from
 * AT-SPI, stored with the screenshot (<app>.png) and a copy with every box drawn and numbered
 * (<app>.boxes.png). Look at the drawn copy; list the numbers of boxes that do not sit on
 * their control with `--drop app:1,5,…` and run again: those are left out of the JSON. The
 * bench never reads AT-SPI for the truth; it reads these files.
 *
 *   npx tsx bench/label-gtk-grounding.ts [--apps gedit,mousepad] [--drop gedit:3,4]
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { walkElements, type ElementNode } from '../src/shared/elements.js';
import type { Rect } from '../src/shared/actions.js';
import { startAccessibilityBus } from '../test/harness/a11y-bus.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { DATA_DIR, GTK_APPS, GTK_SCREEN, roleWord, screenPng, startGtkBenchApp, type GtkApp, type GtkLabel, type GtkLabelFile } from './lib/gtk-grounding.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const apps = (arg('apps')?.split(',') ?? [...GTK_APPS]) as GtkApp[];
const drops = new Map<string, Set<number>>((arg('drop') ?? '').split(';').filter(Boolean).map((part) => {
  const [app, list] = part.split(':');
  return [app!, new Set(list!.split(',').map(Number))];
}));

/** Hand-written other words for controls' names (the paraphrase items). */
const PARAPHRASES: Readonly<Record<GtkApp, Record<string, string>>> = {
  'gnome-calculator': { '+': 'the plus button', '−': 'the minus button', '×': 'the times button', '÷': 'the divide button', '=': 'the equals button', '.': 'the decimal point button', 'Undo': 'the undo arrow' },
  mousepad: { File: 'the file menu', Search: 'the find menu', Document: 'the document menu', Help: 'the help menu' },
  gedit: { Open: 'the open file button', Save: 'the save file button', New: 'the new tab button', Close: 'the close window button', Minimize: 'the minimise button' },
  'gtk3-widget-factory': { 'link button': 'the link', 'Sans Regular': 'the font button', '(None)': 'the file chooser button', Close: 'the close window button', Minimize: 'the minimise button' },
};

const inside = (b: Rect, w: Rect) => b.x >= w.x && b.y >= w.y && b.x + b.width <= w.x + w.width && b.y + b.height <= w.y + w.height;

function labelsOf(nodes: ElementNode[], window: Rect): GtkLabel[] {
  const out: GtkLabel[] = [];
  for (const n of walkElements(nodes)) {
    const b = n.bounds;
    if (!b || b.width < 4 || b.height < 4 || !roleWord(n.role)) continue;
    if (!n.states.includes('visible') || !inside(b, window)) continue;
    // A widget's class ("GtkMenuButton") or an icon's file name ("emblem-default-symbolic") is no name a person reads.
    const name = n.name.trim();
    out.push({ name, role: n.role, bounds: b, readable: name !== '' && !/^Gtk[A-Z]/.test(name) && !/-symbolic$/.test(name) });
  }
  return out;
}

async function drawn(png: Buffer, labels: readonly GtkLabel[]): Promise<Buffer> {
  const boxes = labels
    .map((l, i) => {
      const { x, y, width, height } = l.bounds;
      return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="none" stroke="${l.readable ? '#e00' : '#f0f'}" stroke-width="2"/><text x="${x + 2}" y="${y + 12}" font-size="12" font-family="sans-serif" fill="#00c" stroke="#fff" stroke-width="3" paint-order="stroke">${i}</text>`;
    })
    .join('');
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${GTK_SCREEN.width}" height="${GTK_SCREEN.height}">${boxes}</svg>`);
  return sharp(png).composite([{ input: svg, top: 0, left: 0 }]).png().toBuffer();
}

const xvfb = await startXvfb(GTK_SCREEN);
const bus = await startAccessibilityBus(xvfb);
process.env.DISPLAY = xvfb.display;
process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
const { createComputer } = await import('../src/os-control/index.js');
const computer = createComputer();
await computer.warmUp();
try {
  for (const app of apps) {
    const started = await startGtkBenchApp(bus.xvfb, app);
    try {
      // The tree fills in and the window settles its size after it maps: read until two reads agree.
      let labels: GtkLabel[] = [];
      // The window's box is the focused window's own in the tree (xdotool may name another
      // window of the app, e.g. mousepad's unmapped leader).
      let window: Rect = { x: 0, y: 0, width: GTK_SCREEN.width, height: GTK_SCREEN.height };
      for (let i = 0, same = 0; i < 60 && same < 2; i++) {
        const tree = await computer.elementTree({ scope: 'focused' });
        const root = tree.kind === 'tree' ? tree.windows[0]?.root : undefined;
        if (root?.bounds) window = root.bounds;
        const now = root ? labelsOf([root], window) : [];
        same = now.length > 0 && now.length === labels.length ? same + 1 : 0;
        labels = now;
        await new Promise((r) => setTimeout(r, 500));
      }
      const png = screenPng(bus.xvfb);
      const dropped = drops.get(app) ?? new Set<number>();
      const kept = labels.filter((_, i) => !dropped.has(i));
      const file: GtkLabelFile = {
        app,
        checked: `AT-SPI boxes read ${new Date().toISOString().slice(0, 10)} by bench/label-gtk-grounding.ts, each looked at on ${app}.boxes.png; dropped as not on their control: ${[...dropped].join(', ') || 'none'}`,
        window,
        labels: kept,
        paraphrases: PARAPHRASES[app],
      };
      writeFileSync(path.join(DATA_DIR, `${app}.png`), png);
      writeFileSync(path.join(DATA_DIR, `${app}.boxes.png`), await drawn(png, labels));
      writeFileSync(path.join(DATA_DIR, `${app}.json`), `${JSON.stringify(file, null, 1)}\n`);
      process.stdout.write(`${app}: ${labels.length} boxes (${kept.length} kept), window ${JSON.stringify(window)}\n`);
    } finally {
      await started.stop();
    }
  }
} finally {
  await bus.stop();
}
process.exit(0);
