// @vitest-environment node
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import { readText, terminateOcr } from '../../src/os-control/ocr/index.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { findSecrets } from '../../src/shared/secrets.js';
import { saveConfig } from '../../src/main/config/index.js';
import { redactSecretWords } from '../../src/main/agent/ocr-redact.js';
import { createBridgeService } from '../../src/main/service/index.js';
import type { ImageRedactor } from '../../src/main/service/export-run.js';
import type { ClientInfo } from '../../src/main/service/types.js';
import { tempHome, writeSampleRun } from '../sessions/fixture.js';

// The page's Export with "Redact secrets in screenshots" (issue 28 item 8 on the app's
// and serve's page): sessions.export's `redact` is `deskpilot sessions export --redact`
// — each screenshot written passes through the host's redactor, real OCR and the secret
// detectors here, and the answer counts the words filled. A service without a redactor
// (the desktop app, which ships no OCR) says so in settings and refuses the request
// before writing anything.

afterAll(() => terminateOcr());
const client: ClientInfo = { id: 'page', kind: 'ws' };

/** A run whose only screenshot shows a password in prose and a harmless line. */
async function runShowingAPassword(home: string): Promise<string> {
  await saveConfig(ConfigSchema.parse({}), home);
  await writeSampleRun({ home, runId: 'pw-run', steps: 1 });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="white"/>
    <text x="20" y="80" font-family="DejaVu Sans" font-size="22" fill="black">Your new password is P@ssw0rd!2024</text>
    <text x="20" y="160" font-family="DejaVu Sans" font-size="22" fill="black">Meeting moved to Thursday</text></svg>`;
  writeFileSync(path.join(home, 'sessions', 'pw-run', 'shots', '0000.png'), await sharp(Buffer.from(svg)).png().toBuffer());
  return 'pw-run';
}

function service(home: string, redactImage?: ImageRedactor) {
  return createBridgeService({ home, computer: {} as Computer, env: {}, startRun: async () => Promise.reject(new Error('no runs here')), ...(redactImage ? { redactImage } : {}) });
}

describe('sessions.export with redact', () => {
  it('serve (a redactor): the Markdown export\'s screenshot no longer reads as a secret, the plain one does; the answer counts the words', async () => {
    const { home, cleanup } = tempHome();
    const svc = service(home, redactSecretWords);
    try {
      const runId = await runShowingAPassword(home);
      expect((await svc.call('settings.get', {}, client)).redacts).toBe(true);
      const image = path.join(home, 'exports', runId, `${runId}-images`, 'shots', '0000.png');

      const plain = await svc.call('sessions.export', { runId, format: 'md' }, client);
      expect(plain.kind === 'folder' && plain.redactedWords).toBeUndefined();
      const plainText = (await readText(readFileSync(image), { layout: 'sparse' })).text;
      expect(findSecrets(plainText).length, plainText).toBeGreaterThan(0);

      const redacted = await svc.call('sessions.export', { runId, format: 'md', redact: true }, client);
      expect(redacted.kind).toBe('folder');
      expect(redacted.redactedWords).toBeGreaterThan(0);
      const text = (await readText(readFileSync(image), { layout: 'sparse' })).text;
      expect(findSecrets(text), text).toEqual([]);
      expect(text).not.toMatch(/2024|ssw0rd/);
      // Only the secret: the other line still reads.
      expect(text).toMatch(/Thursday/);
    } finally {
      await svc.close();
      cleanup();
    }
  }, 120_000);

  it('an HTML export (one file sent back): the redactor sees every screenshot it embeds, and the count is what it filled', async () => {
    const { home, cleanup } = tempHome();
    const seen: number[] = [];
    const svc = service(home, async (image) => {
      seen.push(image.length);
      return { image, words: 2 };
    });
    try {
      const runId = await runShowingAPassword(home);
      const out = await svc.call('sessions.export', { runId, format: 'html', redact: true }, client);
      expect(out.kind).toBe('file');
      expect(seen.length).toBeGreaterThan(0);
      expect(out.redactedWords).toBe(2 * seen.length);
    } finally {
      await svc.close();
      cleanup();
    }
  });

  it('the desktop app (no redactor): settings say it cannot, and a redact request is refused with the CLI command, nothing written', async () => {
    const { home, cleanup } = tempHome();
    const svc = service(home);
    try {
      const runId = await runShowingAPassword(home);
      expect((await svc.call('settings.get', {}, client)).redacts).toBe(false);
      await expect(svc.call('sessions.export', { runId, format: 'md', redact: true }, client)).rejects.toThrow(
        `this app does not redact words in screenshots (it needs OCR, which the desktop app does not ship): run \`deskpilot sessions export ${runId} --redact\`; password fields are filled in every export`,
      );
      expect(() => readFileSync(path.join(home, 'exports', runId, `${runId}.md`))).toThrow(/ENOENT/);
      // Without redact the same export works.
      expect((await svc.call('sessions.export', { runId, format: 'md' }, client)).kind).toBe('folder');
    } finally {
      await svc.close();
      cleanup();
    }
  });
});
