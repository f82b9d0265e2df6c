import type { Computer } from './types.js';

/**
 * A Computer that forwards every call to `inner`: the base for wrappers that change a
 * few methods (`{ ...forwardingComputer(inner), settle: … }`), so a method added to
 * `Computer` is forwarded here once instead of in every wrapper.
 */
export function forwardingComputer(inner: Computer): Computer {
  return {
    listDisplays: () => inner.listDisplays(),
    observe: (options) => inner.observe(options),
    perform: (action, signal) => inner.perform(action, signal),
    settle: (options) => inner.settle(options),
    cursorPosition: () => inner.cursorPosition(),
    activeWindow: () => inner.activeWindow(),
    releaseAll: () => inner.releaseAll(),
    elementTree: (options) => inner.elementTree(options),
    findElement: (path) => inner.findElement(path),
  };
}
