/**
 * A window with a target and no words, no accessibility tree (Tk publishes none): a red
 * 20×20 square on a white canvas, at a known place in the canvas. Every button press on
 * the canvas is printed on stdout as "press X Y ROOTX ROOTY" (canvas and screen
 * coordinates): what the app received, and from the app itself where its canvas is on
 * screen (xdotool's geometry of a window openbox reparented is off by the title bar).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { requirePrograms, requirePythonModules } from '../../harness/requirements.js';
import type { Xvfb } from '../../harness/xvfb.js';
import { execFileSync } from 'node:child_process';

export const SQUARE = { x: 410, y: 250, size: 20 } as const;

const SCRIPT = `
import tkinter as tk
root = tk.Tk()
root.title('deskpilot-red-square')
root.geometry('600x400+300+200')
c = tk.Canvas(root, width=600, height=400, bg='white', highlightthickness=0)
c.pack()
c.create_rectangle(${SQUARE.x}, ${SQUARE.y}, ${SQUARE.x + SQUARE.size - 1}, ${SQUARE.y + SQUARE.size - 1}, fill='#ff0000', outline='#ff0000')
c.bind('<Button-1>', lambda e: print(f'press {e.x} {e.y} {e.x_root} {e.y_root}', flush=True))
root.after(0, lambda: print('ready', flush=True))
root.mainloop()
`;

export interface SquareWindow {
  /** The next press the canvas receives: canvas coordinates, and the square's centre on screen as the app places it (pixel indices: its pixels 410…429 centre on 419.5). */
  nextPress(): Promise<{ x: number; y: number; squareCentre: { x: number; y: number } }>;
  stop(): void;
}

export async function startSquareWindow(xvfb: Xvfb): Promise<SquareWindow> {
  requirePrograms(['python3', 'xdotool'], xvfb.env);
  requirePythonModules(['tkinter'], xvfb.env);
  const child = spawn('python3', ['-c', SCRIPT], { env: xvfb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<{ resolve(line: string): void; reject(error: Error): void }> = [];
  const queued: string[] = [];
  let ended: Error | undefined;
  lines.on('line', (line) => {
    const w = waiting.shift();
    if (w) w.resolve(line);
    else queued.push(line);
  });
  // A window that died (Tk cannot open the display, a Python error) fails the wait with its
  // stderr, instead of leaving it to the test's timeout.
  lines.on('close', () => {
    ended = new Error(`the Tk window's python3 ended (exit ${child.exitCode ?? child.signalCode ?? 'unknown'}): ${stderr.trim() || 'no output'}`);
    for (const w of waiting.splice(0)) w.reject(ended);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      if (queued.length) resolve(queued.shift()!);
      else if (ended) reject(ended);
      else waiting.push({ resolve, reject });
    });
  const first = await next();
  if (first !== 'ready') throw new Error(`the Tk window said ${first}`);
  const id = execFileSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^deskpilot-red-square$'], { env: xvfb.env, encoding: 'utf8', timeout: 30_000 }).trim().split('\n')[0]!;
  execFileSync('xdotool', ['windowactivate', '--sync', id], { env: xvfb.env, timeout: 10_000 });
  return {
    async nextPress() {
      const line = await next();
      const m = /^press (\d+) (\d+) (-?\d+) (-?\d+)$/.exec(line);
      if (!m) throw new Error(`the Tk window said ${line}`);
      const [x, y, rootX, rootY] = m.slice(1).map(Number) as [number, number, number, number];
      const half = (SQUARE.size - 1) / 2;
      return { x, y, squareCentre: { x: rootX - x + SQUARE.x + half, y: rootY - y + SQUARE.y + half } };
    },
    stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** The centre of the red pixels of a PNG or JPEG (what the fake grounder "sees"), in its own pixels. */
export async function redCentre(image: Buffer): Promise<{ x: number; y: number } | undefined> {
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) {
        sx += x;
        sy += y;
        n++;
      }
    }
  }
  return n ? { x: sx / n, y: sy / n } : undefined;
}

/** The image of a Chat Completions request (its last image_url data URL), decoded to bytes. */
export function chatImage(body: Record<string, unknown>): Buffer {
  const urls = JSON.stringify(body.messages).match(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g) ?? [];
  const last = urls.at(-1);
  if (!last) throw new Error('no image in the request');
  return Buffer.from(last.slice(last.indexOf(',') + 1), 'base64');
}
