import { describe, expect, it } from 'vitest';
import { MASKED_SECRET, Scrubber, typedPassword } from '../../src/main/sessions/scrub.js';
import type { RunEvent } from '../../src/shared/events.js';

// The recorder's and the runner's one decision on typed text (issue 28 items 5, 7): what of
// it is a password, from where it goes. Listed for scrub.ts in stryker.config.mjs: the
// other scrub files test the Scrubber, not this decision.

describe('typedPassword', () => {
  it('into a password field, all of it is the password: spaces, a trailing Enter, one character; nothing typed is nothing', () => {
    const field = { passwordField: true };
    expect(typedPassword('correct horse battery\n', field)).toBe('correct horse battery\n');
    expect(typedPassword('x', field)).toBe('x');
    expect(typedPassword('', field)).toBeUndefined();
    // The field decides, whatever the window's title says.
    expect(typedPassword('two words', { passwordField: true, windowTitle: 'Notes' })).toBe('two words');
  });

  it("elsewhere, only a bare word into a window whose title says password, its Enter dropped", () => {
    const prompt = { passwordField: false, windowTitle: 'Authentication — Enter password' };
    expect(typedPassword('hunter2\n', prompt)).toBe('hunter2');
    expect(typedPassword('two words', prompt)).toBeUndefined();
    expect(typedPassword('hunter2', { passwordField: false, windowTitle: 'Notes — mousepad' })).toBeUndefined();
    expect(typedPassword('hunter2', { passwordField: false })).toBeUndefined();
  });
});

describe('a typed secret is not masked inside a name the log refers by', () => {
  it("the model's screenshot path (modelImage) keeps the characters a short secret shares with it; the words around are masked", () => {
    const scrubber = new Scrubber({ env: {}, findSecretSpans: () => [] });
    scrubber.markSecret('0007');
    const event = { v: 1, seq: 1, ts: 1, runId: 'r', type: 'observation', image: 'screens/0007.png', modelImage: 'screens/0007-model.jpg', text: 'typed 0007' } as unknown as RunEvent;
    expect(scrubber.scrub(event)).toMatchObject({ image: 'screens/0007.png', modelImage: 'screens/0007-model.jpg', text: `typed ${MASKED_SECRET}` });
  });
});
