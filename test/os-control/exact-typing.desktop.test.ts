/**
 * Issue 11 part 2: typing is exact in real applications, every run — GTK 3 editors
 * (mousepad, gedit: the text read back from the file they save), Chromium (the probe
 * page's textarea) and xterm (`cat > file`) — with accents, CJK, emoji, tabs, newlines
 * and symbols, on the US, German and French layouts (where y/z, a/q and the digits move
 * and @ { [ | ~ sit on AltGr), and with two busy processes loading the 2 cores.
 * After every call nothing is held; after an abort the spare keycodes are back to
 * NoSymbol (the whole `xmodmap -pke` is what it was).
 *
 * CI types each xterm case once and opens 3 fresh typists; exact-typing.opt-in.desktop.test.ts
 * runs every case with 2 xterm runs and 8 typists (`npm run test:opt-in`).
 */
import { exactTypingCases } from './exact-typing.cases.js';

exactTypingCases({ xterm: 1, freshTypists: 3 });
