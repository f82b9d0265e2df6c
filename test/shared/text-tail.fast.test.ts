import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepTail, tailOf } from '../../src/shared/text-tail.js';
import { splitWriterScript } from '../harness/split-writer.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'text-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tailOf', () => {
  it('keeps text within the limit whole and the last characters of longer text', () => {
    expect(tailOf('abc', 3)).toBe('abc');
    expect(tailOf('abcd', 3)).toBe('bcd');
    expect(tailOf('', 0)).toBe('');
    expect(tailOf('ab', 0)).toBe('');
  });

  it('never starts with the second half of a surrogate pair', () => {
    // 'a😀b' is a, a high and a low surrogate, b: the last 2 units would start at the low one.
    expect(tailOf('a😀b', 2)).toBe('b');
    expect(tailOf('a😀b', 3)).toBe('😀b');
    // A high surrogate at the cut is the pair's start: kept.
    expect(tailOf('😀', 2)).toBe('😀');
  });
});

describe('keepTail on a real pipe', () => {
  it('a character split between two reads comes out whole', async () => {
    const text = 'Grüße ✓ — Datei fehlt';
    const child = spawn('python3', [splitWriterScript(dir, text, 3)], { stdio: ['ignore', 'ignore', 'pipe'] });
    const chunks: string[] = [];
    const tail = keepTail(child.stderr, 2000);
    child.stderr.on('data', (s: string) => chunks.push(s));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(3);
    // Two reads, the first ending inside 'ü' — and nothing replaced.
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(tail()).toBe(text);
  });

  it('keeps only the last characters past the limit, and nothing from a missing stream', () => {
    expect(keepTail(null, 10)()).toBe('');
    expect(keepTail(undefined, 10)()).toBe('');
  });
});
