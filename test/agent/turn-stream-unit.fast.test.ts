/**
 * The live text of a turn that may type a password (runner/turn-stream.ts; issue 28):
 * TurnStream alone, its decision in the test's hands — held until the turn's calls are
 * checked, then sent through the scrubber as it is at the end; streamed at once when
 * nothing is to hide; a failed decision holds; a dropped turn sends nothing. The runs
 * through the real runner are turn-stream.fast; this file is the mutation list's fast
 * one (stryker.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import { TurnStream } from '../../src/main/agent/runner/turn-stream.js';

const WORD = 'tulip7';

/** A promise and its resolve/reject, for deciding a TurnStream when the test says so. */
function decision() {
  let resolve!: (hold: boolean) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<boolean>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setImmediate(r));

function streamOf(decided: Promise<boolean>, secrets: string[] = []) {
  const out: string[] = [];
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join('[masked secret]'), text);
  return { out, stream: new TurnStream(scrub, (text) => out.push(text), decided) };
}

describe('TurnStream', () => {
  it('undecided, it sends nothing; decided live, what waited goes out and the rest streams at once', async () => {
    const d = decision();
    const { out, stream } = streamOf(d.promise);
    stream.push('I click ', 'text');
    expect(out).toEqual([]);
    d.resolve(false);
    await settle();
    expect(out).toEqual(['I click ']);
    stream.push('the box ', 'text');
    expect(out).toEqual(['I click ', 'the box ']);
    stream.push('now', 'text');
    stream.end();
    expect(out.join('')).toBe('I click the box now');
  });

  it('decided hold, nothing goes out before end(), then all of it through the scrubber as it is at end()', async () => {
    const secrets: string[] = [];
    const { out, stream } = streamOf(Promise.resolve(true), secrets);
    await settle();
    stream.push(`type ${WORD.slice(0, 3)}`, 'text');
    stream.push(`${WORD.slice(3)} now `, 'text');
    expect(out).toEqual([]);
    // The turn's check marks the word a secret before the stream ends.
    secrets.push(WORD);
    stream.end();
    expect(out.join('')).toBe('type [masked secret] now ');
  });

  it('a decision that fails holds (fails closed); a dropped turn sends nothing, even when decided live after', async () => {
    const failed = decision();
    const a = streamOf(failed.promise);
    a.stream.push('held ', 'text');
    failed.reject(new Error('no window'));
    await settle();
    expect(a.out).toEqual([]);
    a.stream.end();
    expect(a.out).toEqual(['held ']);

    const late = decision();
    const b = streamOf(late.promise);
    b.stream.push(`secret ${WORD} `, 'text');
    b.stream.drop();
    late.resolve(false);
    await settle();
    b.stream.push('more ', 'text');
    expect(b.out).toEqual([]);
    // Ended by the drop: an end() after it sends neither what was held nor what came after.
    b.stream.end();
    expect(b.out).toEqual([]);
  });

  it('an ended turn stays ended: a late delta is never sent, not by a second end() either', async () => {
    for (const hold of [true, false]) {
      const { out, stream } = streamOf(Promise.resolve(hold));
      await settle();
      stream.push('said ', 'text');
      stream.end();
      expect(out, String(hold)).toEqual(['said ']);
      stream.push(`late ${WORD}`, 'text');
      stream.end();
      expect(out, String(hold)).toEqual(['said ']);
    }
  });

  it('a drop then an end() with nothing pushed after: nothing at all is sent', () => {
    const { out, stream } = streamOf(Promise.resolve(true));
    stream.drop();
    stream.end();
    expect(out).toEqual([]);
  });
});
