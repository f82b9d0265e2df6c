/**
 * os-control's public surface. Importing this module does not load nut.js; the first
 * call that needs it does (and binds to process.env.DISPLAY at that moment).
 */
export { createComputer, type ComputerOptions, type DesktopComputer } from './computer.js';
export type { Computer, ImageTarget, Observation, ObserveOptions, PerformResult, SettleOptions, SettleResult } from './types.js';
export { forwardingComputer } from './forwarding.js';
export {
  actionToGlobal,
  captureToGlobal,
  checkImagePoint,
  CoordinateRangeError,
  displayAt,
  globalToCapture,
  globalToImage,
  imageToGlobal,
  regionToDisplayPixels,
} from './coords.js';
export {
  canonicalKeys,
  KeyNameError,
  knownKeyNames,
  parseKeyCombo,
  parseModifiers,
  resolveKey,
  type KeyChord,
  type KeySpec,
  type KeyVocabulary,
  type ModifierClass,
  type ParsedKeys,
} from './keys.js';
export { checkAction, type ActionCheck, type CheckedAction, type PointSpace } from './check-action.js';
export { encodeForModel, targetSize, thumbnail, toRgb, type RawImage } from './image.js';
export { listDisplays, parseListMonitors, pickDisplay } from './displays.js';
export { TakeoverDetector, type TakeoverReport } from './takeover.js';
export { missingDisplay } from './display-env.js';
