/**
 * OCR hit rates on real apps, for what a QA region check does ("Expect display: 5"):
 * readExact (two polarities, nearest/Lanczos/binarised variants, a digit whitelist for
 * numbers) against the check as it was before (local polarity only, line/block 3× and
 * line 2×, any exact reading passes) — the baseline, measured in the same run on the
 * same captures. Also how often each would have FAILED a correct expectation (the
 * harm: a misread overruling a right verdict); readExact may say "unsure" instead.
 *
 *   xcalc display, with xfonts-base and with only the built-in font (Xvfb -fp built-ins),
 *     plain and highlighted by a click (light on dark)
 *   gnome-calculator (GTK 4) and mousepad (GTK 3) at 96 and 144 DPI (Xvfb -dpi, Xft.dpi, GDK_DPI_SCALE)
 *   the probe page's labels at 10–24 px, words and numbers
 *
 *   npm run bench -- ocr-apps
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findText, readExact, readText, terminateOcr } from '../src/os-control/ocr/index.js';
import type { Rect } from '../src/shared/actions.js';
import { startXcalc } from '../test/harness/native-apps.js';
import { startProbe } from '../test/harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../test/harness/xvfb.js';


interface Tally {
  total: number;
  nowPass: number;
  nowFail: number;
  nowUnsure: number;
  oldPass: number;
  oldFail: number;
}
const tally = (): Tally => ({ total: 0, nowPass: 0, nowFail: 0, nowUnsure: 0, oldPass: 0, oldFail: 0 });

const squash = (t: string) => t.replace(/\s+/g, ' ').trim();

/** The check before this change: local polarity, three passes, pass when one reads the text exactly, else fail. */
async function oldCheck(image: Buffer, expected: string, region?: Rect): Promise<boolean> {
  for (const pass of [
    { layout: 'line' as const, scale: 3 },
    { layout: 'block' as const, scale: 3 },
    { layout: 'line' as const, scale: 2 },
  ]) {
    if (squash((await readText(image, { ...pass, region })).text) === squash(expected)) return true;
  }
  return false;
}

/** Every expectation here is correct (it is what the app shows): a "fail" is a misread failing a right verdict. */
async function measure(t: Tally, image: Buffer, expected: string, region?: Rect): Promise<void> {
  t.total += 1;
  const now = await readExact(image, expected, { region });
  if (now.kind === 'match') t.nowPass += 1;
  else if (now.kind === 'mismatch') t.nowFail += 1;
  else t.nowUnsure += 1;
  if (await oldCheck(image, expected, region)) t.oldPass += 1;
  else t.oldFail += 1;
}

function line(name: string, t: Tally): string {
  const pct = (n: number) => `${((100 * n) / Math.max(1, t.total)).toFixed(0)}%`;
  return `  ${name.padEnd(44)} read ${String(t.nowPass).padStart(3)}/${t.total} (${pct(t.nowPass)}), wrongly failed ${t.nowFail}, inconclusive ${t.nowUnsure}` +
    `   | before: read ${t.oldPass}/${t.total} (${pct(t.oldPass)}), wrongly failed ${t.oldFail}`;
}

function capture(xvfb: Xvfb, r: Rect): Buffer {
  const out = spawnSync('import', ['-window', 'root', '-crop', `${r.width}x${r.height}+${r.x}+${r.y}`, '+repage', 'png:-'], { env: xvfb.env, maxBuffer: 64 << 20 });
  if (out.status !== 0) throw new Error(`import: ${out.stderr.toString()}`);
  return out.stdout;
}

function xdo(xvfb: Xvfb, args: string[]): string {
  return spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' }).stdout;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function clientOrigin(xvfb: Xvfb, id: string): { x: number; y: number } {
  const out = spawnSync('xwininfo', ['-id', id], { env: xvfb.env, encoding: 'utf8' }).stdout;
  return { x: Number(/Absolute upper-left X:\s+(-?\d+)/.exec(out)?.[1]), y: Number(/Absolute upper-left Y:\s+(-?\d+)/.exec(out)?.[1]) };
}

/** xcalc: 8 calculations, each read plain and highlighted. */
async function xcalcRates(fontPath?: string): Promise<{ plain: Tally; highlighted: Tally }> {
  const xvfb = await startXvfb({ width: 800, height: 600, ...(fontPath ? { fontPath } : {}) });
  const xcalc = await startXcalc(xvfb, { x: 100, y: 100, width: 260, height: 340 }, { builtInFontsOnPurpose: fontPath === 'built-ins' });
  const plain = tally();
  const highlighted = tally();
  try {
    const o = clientOrigin(xvfb, xcalc.windowId);
    const region = { x: o.x + 8, y: o.y + 2, width: 248, height: 22 };
    const sums: Array<[string, string]> = [['2+3', '5'], ['12+30', '42'], ['7*8', '56'], ['100-1', '99'], ['6/4', '1.5'], ['123*3', '369'], ['9-14', '-5'], ['2048+1', '2049']];
    for (const [expr, result] of sums) {
      xdo(xvfb, ['windowactivate', '--sync', xcalc.windowId]);
      xdo(xvfb, ['key', 'Escape']); // clear
      xdo(xvfb, ['type', '--delay', '30', `${expr}=`]);
      await pause(250);
      await measure(plain, capture(xvfb, region), result);
      xdo(xvfb, ['mousemove', '--sync', String(o.x + 130), String(o.y + 12), 'click', '1']);
      await pause(250);
      await measure(highlighted, capture(xvfb, region), result);
      xdo(xvfb, ['mousemove', '--sync', String(o.x + 130), String(o.y + 200), 'click', '1']); // a button: drops the highlight
    }
  } finally {
    await xcalc.stop();
    await xvfb.stop();
  }
  return { plain, highlighted };
}

/** A GTK app at a DPI: words of known text found where the app draws them (find_text), and numbers read exactly by their found box. */
async function gtkRates(dpi: number): Promise<{ mousepad: Tally; calculator: Tally; size: string }> {
  const xvfb = await startXvfb({ width: 1280, height: 800, dpi });
  spawnSync('xrdb', ['-merge'], { env: xvfb.env, input: `Xft.dpi: ${dpi}\n` });
  const env = { ...xvfb.env, GDK_DPI_SCALE: String(dpi / 96), NO_AT_BRIDGE: '1' };
  const dir = mkdtempSync(join(tmpdir(), 'deskpilot-ocr-bench-'));
  const mousepad = tally();
  const calculator = tally();
  let size: string | undefined;
  try {
    const file = join(dir, 'notes.txt');
    const LINES = ['Invoice 4711 total 129.50', 'Shipping to Berlin on Monday', 'Reference 20488 approved', 'Balance 77.25 remaining'];
    writeFileSync(file, `${LINES.join('\n')}\n`);
    const mp = spawnSync('sh', ['-c', `mousepad "${file}" >/dev/null 2>&1 & echo $!`], { env, encoding: 'utf8' });
    const mpPid = Number(mp.stdout.trim());
    const id = xdo(xvfb, ['search', '--sync', '--onlyvisible', '--name', 'notes.txt']).trim().split('\n')[0]!;
    xdo(xvfb, ['windowmove', '--sync', id, '0', '0']);
    xdo(xvfb, ['windowsize', '--sync', id, '1000', '600']);
    await pause(800);
    const shot = capture(xvfb, { x: 0, y: 0, width: 1280, height: 800 });
    for (const word of LINES.join(' ').split(' ')) {
      const [best] = await findText(shot, word);
      mousepad.total += 1;
      if (!best) {
        mousepad.nowUnsure += 1;
        continue;
      }
      // The found word's box, read as a region check would.
      const pad = 4;
      const box = { x: Math.max(0, best.bbox.x - pad), y: Math.max(0, best.bbox.y - pad), width: best.bbox.width + 2 * pad, height: best.bbox.height + 2 * pad };
      mousepad.total -= 1;
      await measure(mousepad, shot, word, box);
    }
    process.kill(mpPid, 'SIGKILL');

    const gc = spawnSync('sh', ['-c', 'gnome-calculator >/dev/null 2>&1 & echo $!'], { env, encoding: 'utf8' });
    const gcPid = Number(gc.stdout.trim());
    const gid = xdo(xvfb, ['search', '--sync', '--onlyvisible', '--class', 'gnome-calculator']).trim().split('\n')[0]!;
    await pause(1500);
    const geo = xdo(xvfb, ['getwindowgeometry', '--shell', gid]);
    const g = { x: Number(/X=(\d+)/.exec(geo)?.[1]), y: Number(/Y=(\d+)/.exec(geo)?.[1]), width: Number(/WIDTH=(\d+)/.exec(geo)?.[1]), height: Number(/HEIGHT=(\d+)/.exec(geo)?.[1]) };
    size = `${g.width}×${g.height}`;
    for (const [expr, result] of [['12+30', '42'], ['7*8', '56'], ['100-1', '99'], ['123*3', '369'], ['2048+1', '2049'], ['6/4', '1.5']] as const) {
      xdo(xvfb, ['windowactivate', '--sync', gid]);
      xdo(xvfb, ['key', 'Escape']);
      xdo(xvfb, ['type', '--delay', '40', expr]);
      xdo(xvfb, ['key', 'Return']);
      await pause(600);
      const win = capture(xvfb, g);
      const [found] = await findText(win, result, { region: { x: 0, y: 0, width: g.width, height: Math.round(g.height * 0.4) } });
      if (!found) {
        calculator.total += 1;
        calculator.nowUnsure += 1;
        continue;
      }
      const pad = 6;
      await measure(calculator, win, result, { x: Math.max(0, found.bbox.x - pad), y: Math.max(0, found.bbox.y - pad), width: found.bbox.width + 2 * pad, height: found.bbox.height + 2 * pad });
    }
    process.kill(gcPid, 'SIGKILL');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await xvfb.stop();
  }
  return { mousepad, calculator, size: size ?? '?' };
}

/** The probe page: words and numbers at 10–24 px, each read in the box the page drew. */
async function probeRates(): Promise<Map<number, Tally>> {
  const xvfb = await startXvfb({ width: 1280, height: 800 });
  const probe = await startProbe(xvfb, { x: 0, y: 0, width: 1280, height: 800 });
  const perSize = new Map<number, Tally>();
  try {
    const TEXTS = ['Save', 'Cancel', 'Settings', 'Export PNG', '42', '1.5', '2049', '-7'];
    const SIZES = [10, 12, 14, 16, 18, 20, 24];
    const labels = SIZES.flatMap((fontSize, row) => TEXTS.map((text, col) => ({ text, fontSize, x: 20 + col * 150, y: 20 + row * 60 })));
    const drawn = await probe.showPattern(labels);
    await pause(300);
    const screen = capture(xvfb, { x: 0, y: 0, width: 1280, height: 800 });
    for (const [i, label] of labels.entries()) {
      const box = drawn[i]!;
      const t = perSize.get(label.fontSize) ?? tally();
      await measure(t, screen, label.text, { x: box.x - 6, y: box.y - 4, width: box.width + 12, height: box.height + 8 });
      perSize.set(label.fontSize, t);
    }
  } finally {
    await probe.close();
    await xvfb.stop();
  }
  return perSize;
}

const load = loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`OCR hit rates of region checks (every expectation is correct: "wrongly failed" is a misread failing a right verdict); load average ${load} on ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores`);
const withFonts = await xcalcRates();
console.log(line('xcalc, xfonts-base, plain display', withFonts.plain));
console.log(line('xcalc, xfonts-base, highlighted display', withFonts.highlighted));
const builtIn = await xcalcRates('built-ins');
console.log(line('xcalc, built-in font only, plain', builtIn.plain));
console.log(line('xcalc, built-in font only, highlighted', builtIn.highlighted));
for (const dpi of [96, 144]) {
  const g = await gtkRates(dpi);
  console.log(line(`mousepad (GTK 3) words, ${dpi} DPI`, g.mousepad));
  console.log(line(`gnome-calculator (GTK 4) results, ${dpi} DPI`, g.calculator) + `   [window ${g.size}]`);
}
const probe = await probeRates();
const all = tally();
for (const [size, t] of probe) {
  console.log(line(`probe page ${size} px (words and numbers)`, t));
  for (const k of Object.keys(all) as Array<keyof Tally>) all[k] += t[k];
}
console.log(line('probe page 10–24 px, all', all));
await terminateOcr();
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
