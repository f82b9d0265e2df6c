/** The confirmation dialog the text-near tests share: drawn, so its words and pixels are known. */
import sharp from 'sharp';
import { H, W } from './drawn-screen.js';

/** A window with a list and a status bar, and a confirmation dialog over it: a question and a Remove button. */
export async function dialog(question: string, status = 'Ready', at = { x: 0, y: 0 }): Promise<Buffer> {
  const rows = Array.from({ length: 8 }, (_, i) => `<text x="30" y="${60 + i * 24}" font-family="DejaVu Sans" font-size="13">file-${i}.txt</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>${rows}<text x="20" y="385" font-family="DejaVu Sans" font-size="13">${status}</text>
<g transform="translate(${at.x} ${at.y})"><rect x="200" y="120" width="300" height="130" fill="#f2f2f2" stroke="#888"/><text x="220" y="165" font-family="DejaVu Sans" font-size="13">${question}</text>
<rect x="380" y="205" width="100" height="30" rx="3" fill="#e6e6e6" stroke="#666"/><text x="430" y="225" font-family="DejaVu Sans" font-size="13" text-anchor="middle">Remove</text></g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
