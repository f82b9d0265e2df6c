import { describe, expect, it } from 'vitest';
import { describeDisplay, NoDisplayError, parseListMonitors, pickDisplay, UnknownDisplayError } from '../../src/os-control/displays.js';

describe('xrandr --listmonitors', () => {
  it('reads monitors with offsets, marks the primary', () => {
    const text = `Monitors: 3
 0: +*DP-1 2560/597x1440/336+0+0  DP-1
 1: +HDMI-1 1920/509x1080/286+2560+180  HDMI-1
 2: +eDP-1 1600/344x900/194+-1600+0  eDP-1
`;
    const d = parseListMonitors(text);
    expect(d.map((x) => [x.id, x.bounds, x.primary])).toEqual([
      ['DP-1', { x: 0, y: 0, width: 2560, height: 1440 }, true],
      ['HDMI-1', { x: 2560, y: 180, width: 1920, height: 1080 }, false],
      ['eDP-1', { x: -1600, y: 0, width: 1600, height: 900 }, false],
    ]);
    expect(d.every((x) => x.scaleFactor === 1)).toBe(true);
    expect(pickDisplay(d).id).toBe('DP-1');
    expect(pickDisplay(d, 'eDP-1').bounds.x).toBe(-1600);
    expect(() => pickDisplay(d, 'VGA-1')).toThrow(UnknownDisplayError);
    expect(() => pickDisplay(d, 'VGA-1')).toThrow(
      'no display "VGA-1" (config displayId or --display); the displays are: "DP-1" 2560×1440 at (0, 0), primary; "HDMI-1" 1920×1080 at (2560, 180); "eDP-1" 1600×900 at (-1600, 0)',
    );
    expect(() => pickDisplay([], undefined)).toThrow(NoDisplayError);
  });

  it("drops X's whole-screen monitor when real monitors exist; picks the one at the origin as primary (Xvfb + --setmonitor)", () => {
    // What `xrandr --listmonitors` prints on Xvfb after two --setmonitor calls.
    const d = parseListMonitors('Monitors: 3\n 0: LEFT 960/254x1080/286+0+0 \n 1: RIGHT 960/254x1080/286+960+0 \n 2: +screen 1920/508x1080/286+0+0  screen\n');
    expect(d.map((x) => [x.id, x.primary])).toEqual([
      ['LEFT', true],
      ['RIGHT', false],
    ]);
  });

  it('keeps the whole-screen monitor on a bare Xvfb (it is the only one), and mirrored monitors both', () => {
    expect(parseListMonitors('Monitors: 1\n 0: +screen 1280/338x800/211+0+0  screen\n').map((x) => [x.id, x.primary])).toEqual([['screen', true]]);
    const mirrored = parseListMonitors('Monitors: 2\n 0: +*DP-1 1920/509x1080/286+0+0  DP-1\n 1: +HDMI-1 1920/509x1080/286+0+0  HDMI-1\n');
    expect(mirrored.map((x) => x.id)).toEqual(['DP-1', 'HDMI-1']);
  });

  it('describes a display in one line', () => {
    const [d] = parseListMonitors('Monitors: 1\n 0: +*eDP-1 1600/344x900/194+-1600+0  eDP-1\n');
    expect(describeDisplay(d!)).toBe('"eDP-1" 1600×900 at (-1600, 0), primary');
  });
});
