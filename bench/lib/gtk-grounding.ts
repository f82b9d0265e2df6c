/**
 * The GTK part of the grounding bench's labelled set (issue 33 item 4): gnome-calculator,
 * mousepad, gedit and gtk3-widget-factory on a 1920×1080 Xvfb, each window moved to the same
 * place, so the screen is the one stored with the labels. The truth of each item is a box in
 * bench/data/grounding-gtk/<app>.json, stored with the screenshot it was checked on
 * (<app>.png) and that screenshot with the boxes drawn (<app>.boxes.png): the boxes were read
 * once from AT-SPI by bench/label-gtk-grounding.ts and each one looked at on the drawn copy —
 * a box that did not sit on its control was dropped there. The bench compares the live screen
 * with the stored screenshot before it scores an app: a changed layout (a GTK or theme update)
 * makes the stored boxes stale, and the app is skipped with the difference said, never scored.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { z } from 'zod';
import { RectSchema, type Rect } from '../../src/shared/actions.js';
import { startApp, type NativeApp } from '../../test/harness/native-apps.js';
import type { Xvfb } from '../../test/harness/xvfb.js';
import type { DescriptionKind } from './grounding-items.js';

export const GTK_APPS = ['gnome-calculator', 'mousepad', 'gedit', 'gtk3-widget-factory'] as const;
export type GtkApp = (typeof GTK_APPS)[number];

export const GTK_SCREEN = { width: 1920, height: 1080 } as const;
/** Where every app's window is moved (its frame's top-left), so the stored screen is the screen. */
const WINDOW_AT = { x: 40, y: 40 } as const;
export const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'grounding-gtk');
/** The file the editors open: a fixed path, so their title (and the stored screen) is the same each run. */
const EDITED_FILE = '/tmp/deskpilot-grounding-bench/notes.txt';

export const GtkLabelSchema = z.object({
  name: z.string(),
  role: z.string().min(1),
  bounds: RectSchema,
  /**
   * The name is one a person reads on the screen. False for no name, a widget class
   * ("GtkMenuButton") or an icon's file name ("emblem-default-symbolic"): such a control gets
   * no name item and anchors no spatial one, but is kept, so "the button right of Basic" is
   * the hamburger button beside it, not the Minimize button past it.
   */
  readable: z.boolean(),
});
export type GtkLabel = z.infer<typeof GtkLabelSchema>;
export const GtkLabelFileSchema = z.object({
  app: z.enum(GTK_APPS),
  /** How the boxes were checked, said in the file itself. */
  checked: z.string().min(1),
  /** The window's client area when the screenshot was taken: the stored screen is compared inside it. */
  window: RectSchema,
  labels: z.array(GtkLabelSchema).min(1),
  /** Other words for some controls' names (written by hand): the paraphrase items. */
  paraphrases: z.record(z.string(), z.string()).default({}),
});
export type GtkLabelFile = z.infer<typeof GtkLabelFileSchema>;

const COMMANDS: Readonly<Record<GtkApp, { cmd: string; args: string[]; search: string[] }>> = {
  'gnome-calculator': { cmd: 'gnome-calculator', args: [], search: ['--name', '^Calculator$'] },
  mousepad: { cmd: 'mousepad', args: [EDITED_FILE], search: ['--class', 'mousepad'] },
  gedit: { cmd: 'gedit', args: ['--standalone', EDITED_FILE], search: ['--class', 'gedit'] },
  'gtk3-widget-factory': { cmd: 'gtk3-widget-factory', args: [], search: ['--class', 'gtk3-widget-factory'] },
};

/** Starts `app` with its accessibility on and its defaults (GSETTINGS_BACKEND=memory), its window moved to WINDOW_AT. */
export async function startGtkBenchApp(xvfb: Xvfb, app: GtkApp): Promise<NativeApp> {
  mkdirSync(path.dirname(EDITED_FILE), { recursive: true });
  writeFileSync(EDITED_FILE, 'Grocery list\nmilk\nbread\n');
  const { cmd, args, search } = COMMANDS[app];
  const started = await startApp(xvfb, cmd, args, search, { GSETTINGS_BACKEND: 'memory', LC_ALL: 'C.UTF-8' });
  execFileSync('xdotool', ['windowmove', '--sync', started.windowId, String(WINDOW_AT.x), String(WINDOW_AT.y), 'windowactivate', '--sync', started.windowId], { env: xvfb.env, timeout: 15_000 });
  return started;
}

/** The whole screen as PNG bytes (ImageMagick's import: no code of the chain under test). */
export function screenPng(xvfb: Xvfb): Buffer {
  return execFileSync('import', ['-window', 'root', 'png:-'], { env: xvfb.env, timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
}

export function readLabelFile(app: GtkApp): GtkLabelFile {
  return GtkLabelFileSchema.parse(JSON.parse(readFileSync(path.join(DATA_DIR, `${app}.json`), 'utf8')));
}

/**
 * How much the screen now differs from the stored one inside the window: the share of
 * pixels whose grey level moved more than 24 of 255 (a caret's blink and anti-aliasing stay
 * under it). The bench scores an app only below 0.5% (1000×700 px: 3,500 pixels, less than
 * one changed control).
 */
export async function screenDifference(now: Buffer, stored: Buffer, window: Rect): Promise<number> {
  const region = { left: Math.max(0, window.x), top: Math.max(0, window.y), width: window.width, height: window.height };
  const grey = (png: Buffer) => sharp(png).extract(region).greyscale().raw().toBuffer();
  const [a, b] = await Promise.all([grey(now), grey(stored)]);
  let moved = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 24) moved++;
  return moved / a.length;
}
export const MAX_SCREEN_DIFFERENCE = 0.005;

/** How a planner names a role; undefined for roles the set does not describe by role. */
export function roleWord(role: string): string | undefined {
  const words: Record<string, string> = {
    'push button': 'button',
    'toggle button': 'button',
    'check box': 'check box',
    'radio button': 'radio button',
    'page tab': 'tab',
    'combo box': 'combo box',
    text: 'text field',
    'spin button': 'spin button',
    slider: 'slider',
    'menu item': 'menu item',
    menu: 'menu',
  };
  return words[role];
}

export interface GtkItem {
  target: number;
  kind: DescriptionKind;
  description: string;
}

/** The name a person reads on the control: GTK 4.8 doubles some accessible names ("7 7"), the screen shows one. */
export function shownName(name: string): string {
  const half = name.split(' ');
  const n = half.length / 2;
  return half.length % 2 === 0 && half.slice(0, n).join(' ') === half.slice(n).join(' ') ? half.slice(0, n).join(' ') : name;
}

const rowOverlap = (a: Rect, b: Rect) => Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > Math.min(a.height, b.height) / 2;

/**
 * The items of one app: each label by its name; by its paraphrase where one is written; and
 * spatially, "the <role> right of <name>" from the nearest labelled control on its left in
 * the same row (by construction, when that control's name is unique and nothing of the same
 * role word sits between them).
 */
export function gtkItems(file: GtkLabelFile): GtkItem[] {
  const { labels } = file;
  // Case apart, two names read alike to a person and to the chain ("Page 1", "page 1"): neither is a name item.
  const count = (name: string) => labels.filter((l) => shownName(l.name).toLowerCase() === shownName(name).toLowerCase()).length;
  const items: GtkItem[] = [];
  labels.forEach((label, i) => {
    if (label.readable && count(label.name) === 1) items.push({ target: i, kind: 'name', description: shownName(label.name) });
    const paraphrase = file.paraphrases[shownName(label.name)];
    if (paraphrase && label.readable && count(label.name) === 1) items.push({ target: i, kind: 'paraphrase', description: paraphrase });
    const word = roleWord(label.role);
    if (!word) return;
    const left = labels
      .filter((l) => l !== label && rowOverlap(l.bounds, label.bounds) && l.bounds.x + l.bounds.width <= label.bounds.x + 1)
      .sort((a, b) => b.bounds.x - a.bounds.x)[0];
    if (!left || !left.readable || count(left.name) !== 1) return;
    const between = labels.some((l) => l !== label && roleWord(l.role) === word && rowOverlap(l.bounds, label.bounds) && l.bounds.x < label.bounds.x && l.bounds.x > left.bounds.x);
    if (!between) items.push({ target: i, kind: 'spatial', description: `the ${word} right of ${shownName(left.name)}` });
  });
  return items;
}
