/**
 * click-target.ts and click-owed.ts (issue 26): a report answers a click only when its
 * object is under the click point, is no whole view, and (for a caret) takes text; what a
 * click owes follows from the states of the object its app finds under the point.
 */
import { describe, expect, it, vi } from 'vitest';
import { OWED_LOOKUP_MS, owedAnswer, owedFromStates } from '../../src/os-control/click-owed.js';
import { landedOn, OBJECT_LOOKUP_MS, reportedObject, type ObjectCall } from '../../src/os-control/click-target.js';

const entry = { role: 79, extents: [580, 40, 148, 36] as const, editable: true };

describe('landedOn', () => {
  it('an entry under the point answers by focus and caret; outside the point it does not', () => {
    expect(landedOn(entry, 'focus', { x: 654, y: 58 })).toBe(true);
    expect(landedOn(entry, 'caret', { x: 580, y: 40 })).toBe(true);
    // Extents are [x, x + width) × [y, y + height).
    expect(landedOn(entry, 'focus', { x: 728, y: 58 })).toBe(false);
    expect(landedOn(entry, 'focus', { x: 654, y: 76 })).toBe(false);
    expect(landedOn(entry, 'focus', { x: 579, y: 58 })).toBe(false);
    expect(landedOn(entry, 'focus', { x: 654, y: 39 })).toBe(false);
  });

  it("the page's own reports do not: the document's focus, the body section's caret (probe page, Chromium)", () => {
    const point = { x: 654, y: 58 };
    expect(landedOn({ role: 95, extents: [20, 20, 1000, 640], editable: false }, 'focus', point)).toBe(false);
    expect(landedOn({ role: 85, extents: [20, 20, 1000, 640], editable: false }, 'caret', point)).toBe(false);
    // A section under the point that gains the focus (a focusable div) does answer.
    expect(landedOn({ role: 85, extents: [20, 20, 1000, 640], editable: false }, 'focus', point)).toBe(true);
    for (const role of [14, 23, 46, 69, 75, 82, 92, 93, 94, 95, 96]) expect(landedOn({ ...entry, role }, 'focus', point)).toBe(false);
  });

  it('without a point only the role and the editable state decide', () => {
    expect(landedOn(entry, 'focus', undefined)).toBe(true);
    expect(landedOn({ ...entry, role: 95 }, 'focus', undefined)).toBe(false);
    expect(landedOn({ ...entry, editable: false }, 'caret', undefined)).toBe(false);
  });
});

describe('reportedObject', () => {
  it('reads role, state and extents each from its own call', async () => {
    const calls: string[] = [];
    const call: ObjectCall = (iface, member, signature, body) => {
      calls.push(`${iface}.${member}(${signature}:${JSON.stringify(body)})`);
      if (member === 'GetRole') return Promise.resolve([79]);
      if (member === 'GetState') return Promise.resolve([[1 << 7, 0]]);
      return Promise.resolve([[580, 40, 148, 36]]);
    };
    expect(await reportedObject(call)).toEqual({ role: 79, editable: true, extents: [580, 40, 148, 36] });
    expect(calls.sort()).toEqual(['org.a11y.atspi.Accessible.GetRole(:[])', 'org.a11y.atspi.Accessible.GetState(:[])', 'org.a11y.atspi.Component.GetExtents(u:[0])']);
    const readOnly: ObjectCall = (_i, member) => Promise.resolve(member === 'GetRole' ? [85] : member === 'GetState' ? [[1 << 12]] : [[0, 0, 1, 1]]);
    expect((await reportedObject(readOnly)).editable).toBe(false);
  });

  it('another shape or a gone object rejects', async () => {
    await expect(reportedObject((_i, member) => Promise.resolve(member === 'GetRole' ? ['entry'] : [[0]]))).rejects.toThrow();
    await expect(reportedObject(() => Promise.reject(new Error('org.freedesktop.DBus.Error.UnknownObject')))).rejects.toThrow(/UnknownObject/);
  });
});

/** AtspiStateType bits: editable 7, focusable 11, focused 12, active 1. */
const bits = (...n: number[]) => n.reduce((w, b) => w | (1 << b), 0);

describe('owedFromStates', () => {
  it('editable focusable text without the focus owes its focus; something else focusable owes a focus; the focused or unfocusable owe nothing', () => {
    expect(owedFromStates(bits(7, 11))).toBe('text-focus');
    expect(owedFromStates(bits(11))).toBe('focus');
    expect(owedFromStates(bits(7, 11, 12))).toBe('nothing');
    expect(owedFromStates(bits(11, 12))).toBe('nothing');
    expect(owedFromStates(bits(7))).toBe('nothing');
    expect(owedFromStates(0)).toBe('nothing');
  });
});

/**
 * Each method as AT-SPI defines it: its interface, its argument signature and how its body
 * starts. A real object answers a call on another interface or with other arguments with an
 * error (UnknownMethod, InvalidArgs); so do the test apps below.
 */
const METHODS: Record<string, { iface: string; signature: string; body: (body: unknown[]) => boolean }> = {
  GetChildren: { iface: 'org.a11y.atspi.Accessible', signature: '', body: (body) => body.length === 0 },
  GetRole: { iface: 'org.a11y.atspi.Accessible', signature: '', body: (body) => body.length === 0 },
  GetState: { iface: 'org.a11y.atspi.Accessible', signature: '', body: (body) => body.length === 0 },
  // 0: screen coordinates.
  GetExtents: { iface: 'org.a11y.atspi.Component', signature: 'u', body: (body) => body.length === 1 && body[0] === 0 },
  GetAccessibleAtPoint: { iface: 'org.a11y.atspi.Component', signature: 'iiu', body: (body) => body.length === 3 && body[2] === 0 },
};
function badCall(iface: string, member: string, signature: string, body: unknown[]): Error | undefined {
  const method = METHODS[member];
  if (method?.iface !== iface || method.signature !== signature || !method.body(body)) return new Error(`org.freedesktop.DBus.Error.UnknownMethod: ${iface}.${member}(${signature}) ${JSON.stringify(body)}`);
  return undefined;
}

describe('owedAnswer', () => {
  /** A small app: two windows (the second active) holding a document, an entry inside it. */
  function app(entryStates: number) {
    const log: string[] = [];
    const objects: Record<string, Record<string, unknown>> = {
      ':1.2 /org/a11y/atspi/accessible/root': { GetChildren: [[[':1.2', '/w1'], [':1.2', '/w2']]] },
      ':1.2 /w1': { GetExtents: [[0, 0, 800, 600]], GetState: [[0]], GetAccessibleAtPoint: [[':1.2', '/wrong']] },
      ':1.2 /w2': { GetExtents: [[20, 20, 1000, 640]], GetState: [[bits(1)]], GetAccessibleAtPoint: [['', '/doc']] },
      ':1.2 /doc': { GetAccessibleAtPoint: [[':1.2', '/entry']], GetRole: [95] },
      ':1.2 /entry': { GetAccessibleAtPoint: [[':1.2', '/label']], GetState: [[entryStates, 0]], GetRole: [79] },
      ':1.2 /label': { GetAccessibleAtPoint: [[':1.2', '/org/a11y/atspi/null']], GetState: [[0, 0]], GetRole: [116] },
    };
    const call = (destination: string, path: string): ObjectCall => (iface, member, signature, body) => {
      const bad = badCall(iface, member, signature, body);
      if (bad) return Promise.reject(bad);
      log.push(`${path}.${member}${member === 'GetAccessibleAtPoint' ? JSON.stringify(body) : ''}`);
      const reply = objects[`${destination} ${path}`]?.[member];
      return reply === undefined ? Promise.reject(new Error(`no ${member} on ${path}`)) : Promise.resolve(reply);
    };
    return { call, log };
  }

  it('walks from the active window under the point down to the deepest object, then up to the nearest focusable one below the page', async () => {
    const { call, log } = app(bits(7, 11));
    expect(await owedAnswer(call, ':1.2', { x: 654, y: 58 })).toBe('text-focus');
    expect(log).toEqual([
      '/org/a11y/atspi/accessible/root.GetChildren',
      '/w1.GetExtents', '/w1.GetState', '/w2.GetExtents', '/w2.GetState',
      '/w2.GetAccessibleAtPoint[654,58,0]', '/doc.GetAccessibleAtPoint[654,58,0]', '/entry.GetAccessibleAtPoint[654,58,0]', '/label.GetAccessibleAtPoint[654,58,0]',
      '/label.GetRole', '/label.GetState', '/entry.GetRole', '/entry.GetState',
    ]);
    expect(await owedAnswer(app(bits(7, 11, 12)).call, ':1.2', { x: 654, y: 58 })).toBe('nothing');
    expect(await owedAnswer(app(bits(11)).call, ':1.2', { x: 654, y: 58 })).toBe('focus');
    // Nothing focusable below the page: nothing owed (the page's focus answers no click).
    const bare = app(0);
    expect(await owedAnswer(bare.call, ':1.2', { x: 654, y: 58 })).toBe('nothing');
    expect(bare.log.slice(-5)).toEqual(['/label.GetRole', '/label.GetState', '/entry.GetRole', '/entry.GetState', '/doc.GetRole']);
  });

  it('no window of the app under the point: undefined; an object that fails: rejects', async () => {
    expect(await owedAnswer(app(0).call, ':1.2', { x: 1100, y: 700 })).toBeUndefined();
    await expect(owedAnswer(app(0).call, ':1.3', { x: 1, y: 1 })).rejects.toThrow(/GetChildren/);
  });
});

describe('owedAnswer at the edges', () => {
  /** One app `:1.2`: `objects` by path, each member's reply (a function of the call's body, or the body itself). */
  function tree(objects: Record<string, Record<string, unknown>>) {
    const log: string[] = [];
    const call = (destination: string, path: string): ObjectCall => (iface, member, signature, body) => {
      const bad = badCall(iface, member, signature, body);
      if (bad) return Promise.reject(bad);
      log.push(`${destination} ${path}.${member}`);
      const reply = objects[`${destination} ${path}`]?.[member];
      return reply === undefined ? Promise.reject(new Error(`no ${member} on ${destination} ${path}`)) : Promise.resolve(reply);
    };
    return { call, log };
  }
  const root = (windows: Array<[string, string]>) => ({ ':1.2 /org/a11y/atspi/accessible/root': { GetChildren: [windows] } });
  const focusableText = { GetRole: [79], GetState: [[bits(7, 11), 0]] };

  it("a window's extents hold their left and top edges, not their right and bottom ones", async () => {
    const { call } = tree({
      ...root([[':1.2', '/w']]),
      ':1.2 /w': { GetExtents: [[20, 30, 100, 50]], GetState: [[0]], GetAccessibleAtPoint: [[':1.2', '/entry']] },
      ':1.2 /entry': { ...focusableText, GetAccessibleAtPoint: [[':1.2', '/org/a11y/atspi/null']] },
    });
    for (const inside of [{ x: 20, y: 30 }, { x: 119, y: 79 }]) expect(await owedAnswer(call, ':1.2', inside)).toBe('text-focus');
    for (const outside of [{ x: 19, y: 50 }, { x: 120, y: 50 }, { x: 50, y: 29 }, { x: 50, y: 80 }]) expect(await owedAnswer(call, ':1.2', outside)).toBeUndefined();
  });

  it("the walk follows an object of another app (a plug's, at the same path as the socket), and stops at an object that names itself", async () => {
    const { call, log } = tree({
      ...root([[':1.2', '/w']]),
      ':1.2 /w': { GetExtents: [[0, 0, 500, 500]], GetState: [[bits(1)]], GetAccessibleAtPoint: [[':1.9', '/w']] },
      // The plug's own objects: an empty bus name is the plug's app, not the window's.
      ':1.9 /w': { GetAccessibleAtPoint: [['', '/entry']], GetRole: [37], GetState: [[0, 0]] },
      ':1.9 /entry': { ...focusableText, GetAccessibleAtPoint: [[':1.9', '/entry']] },
    });
    expect(await owedAnswer(call, ':1.2', { x: 10, y: 10 })).toBe('text-focus');
    expect(log.filter((line) => line.endsWith('GetAccessibleAtPoint'))).toEqual([':1.2 /w.GetAccessibleAtPoint', ':1.9 /w.GetAccessibleAtPoint', ':1.9 /entry.GetAccessibleAtPoint']);
  });

  it('nothing focusable and no page on the way up from the deepest object: nothing owed', async () => {
    const { call } = tree({
      ...root([[':1.2', '/w']]),
      ':1.2 /w': { GetExtents: [[0, 0, 500, 500]], GetState: [[0]], GetAccessibleAtPoint: [[':1.2', '/panel']] },
      ':1.2 /panel': { GetAccessibleAtPoint: [[':1.2', '/label']], GetRole: [39], GetState: [[0, 0]] },
      ':1.2 /label': { GetAccessibleAtPoint: [[':1.2', '/org/a11y/atspi/null']], GetRole: [29], GetState: [[]] },
    });
    expect(await owedAnswer(call, ':1.2', { x: 10, y: 10 })).toBe('nothing');
  });

  it('an endless tree (each object names a new child under the point) is walked 32 levels deep, no further', async () => {
    const log: string[] = [];
    const call = (_destination: string, path: string): ObjectCall => (iface, member, signature, body) => {
      const bad = badCall(iface, member, signature, body);
      if (bad) return Promise.reject(bad);
      log.push(`${path}.${member}`);
      if (member === 'GetChildren') return Promise.resolve([[[':1.2', '/0']]]);
      if (member === 'GetExtents') return Promise.resolve([[0, 0, 100, 100]]);
      if (member === 'GetAccessibleAtPoint') return Promise.resolve([[':1.2', `${path}/0`]]);
      if (member === 'GetRole') return Promise.resolve([79]);
      return Promise.resolve([[path.length > 60 ? bits(7, 11) : 0, 0]]);
    };
    expect(await owedAnswer(call, ':1.2', { x: 1, y: 1 })).toBe('text-focus');
    expect(log.filter((line) => line.endsWith('GetAccessibleAtPoint'))).toHaveLength(32);
    // The deepest object named (32 levels below the window) is the first asked for its role.
    expect(log.find((line) => line.endsWith('GetRole'))).toBe(`/0${'/0'.repeat(32)}.GetRole`);
  });

  it('an app that does not answer in time: rejects naming the lookup, after OWED_LOOKUP_MS', async () => {
    vi.useFakeTimers();
    try {
      const silent = owedAnswer(() => () => new Promise(() => {}), ':1.2', { x: 1, y: 1 });
      const outcome = silent.then(() => 'resolved', (error: unknown) => String(error));
      await vi.advanceTimersByTimeAsync(OWED_LOOKUP_MS);
      expect(await outcome).toMatch(/asking the clicked app what is under the click/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('reportedObject in time', () => {
  it('an object that does not answer in time: rejects naming the lookup, after OBJECT_LOOKUP_MS', async () => {
    vi.useFakeTimers();
    try {
      const outcome = reportedObject(() => new Promise(() => {})).then(() => 'resolved', (error: unknown) => String(error));
      await vi.advanceTimersByTimeAsync(OBJECT_LOOKUP_MS);
      expect(await outcome).toMatch(/asking a reported object its role, extents and state/);
    } finally {
      vi.useRealTimers();
    }
  });
});
