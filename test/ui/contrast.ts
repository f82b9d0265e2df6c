import type { Page } from 'playwright-core';

/**
 * A WCAG 2.x contrast check of every piece of text drawn on the page (issue 34 item 9):
 * for each visible text node, its colour against the colour actually behind it —
 * backgrounds composited up the ancestor chain, `opacity` of the element and its
 * ancestors applied to the text colour. Normal text needs 4.5:1, large text (24 px, or
 * 18.66 px bold) 3:1 (SC 1.4.3). Disabled controls are exempt by the criterion, and
 * text over an image (the screenshot overlays) is left out: its background is pixels.
 */
export interface ContrastFailure {
  text: string;
  ratio: number;
  needed: number;
  color: string;
  background: string;
  selector: string;
}

export async function contrastFailures(page: Page): Promise<ContrastFailure[]> {
  return page.evaluate(() => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) {
        // color(srgb r g b / a) from color-mix().
        const s = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/.exec(c);
        if (s) return [Number(s[1]) * 255, Number(s[2]) * 255, Number(s[3]) * 255, s[4] === undefined ? 1 : Number(s[4])];
        return [0, 0, 0, 0];
      }
      const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const over = (top: RGBA, bottom: RGBA): RGBA => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const ch = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
      return [ch(0), ch(1), ch(2), a];
    };
    const lum = ([r, g, b]: RGBA) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a: RGBA, b: RGBA) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
      return (x + 0.05) / (y + 0.05);
    };
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''}.${[...el.classList].join('.')}`;

    const backgroundOf = (el: Element): RGBA | null => {
      const layers: RGBA[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.backgroundImage !== 'none' || e.tagName === 'IMG') return null;
        const bg = parse(cs.backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let result: RGBA = parse(getComputedStyle(document.documentElement).backgroundColor);
      if (result[3] < 1) result = over(result, [255, 255, 255, 1]);
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };

    const failures: ContrastFailure[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      const el = n.parentElement;
      if (!text || !el || seen.has(el)) continue;
      seen.add(el);
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (el.closest('.shot, .shot-overlays, [data-testid=live-frame], option, details:not([open]) > :not(summary)')) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      if (el.closest(':disabled, [aria-disabled=true]')) continue;
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (opacity === 0) continue;
      const bg = backgroundOf(el);
      if (!bg) continue;
      const fg0 = parse(cs.color);
      const fg = over([fg0[0], fg0[1], fg0[2], fg0[3] * opacity], bg);
      const size = parseFloat(cs.fontSize);
      const bold = Number(cs.fontWeight) >= 700;
      const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const r = ratio(fg, bg);
      if (r + 0.005 < needed) {
        const rgb = (c: RGBA) => `rgb(${c.slice(0, 3).map((v) => Math.round(v)).join(', ')})`;
        failures.push({ text: text.slice(0, 40), ratio: Math.round(r * 100) / 100, needed, color: rgb(fg), background: rgb(bg), selector: describe(el) });
      }
    }
    return failures;
  });
}
