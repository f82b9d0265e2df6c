/** Space kept between a control brought into view and the window's bottom edge (a button flush with the edge reads as cut off). */
const BOTTOM_GAP_PX = 12;

/**
 * Scrolls the window so that `last`'s bottom and `first`'s top are both in view, `first`
 * winning when they cannot be: the field a person is to edit, then the button that acts
 * on it. The top is counted from the sticky header's bottom (the header covers the
 * page's first ~52 px). Nothing moves when both are in view already.
 */
export function keepInView(first: HTMLElement, last: HTMLElement): void {
  const top = document.querySelector('.app-header')?.getBoundingClientRect().bottom ?? 0;
  const below = last.getBoundingClientRect().bottom + BOTTOM_GAP_PX - window.innerHeight;
  // Down as far as the last one needs, but never so far that the first goes under the header.
  const down = Math.min(below, first.getBoundingClientRect().top - top);
  if (down > 0) window.scrollBy(0, Math.ceil(down));
  else if (first.getBoundingClientRect().top < top) window.scrollBy(0, Math.floor(first.getBoundingClientRect().top - top));
}
