import type { Point } from '../../shared/actions.js';
import type { ImageSize } from '../lib/geometry.js';

/** The lens is this share of the shown screenshot's width (square), and shows it this many times larger. */
const LENS_SHARE = 0.3;
const ZOOM = 3;

/**
 * A magnifier around the proposed point (issue 34 item 2): a menu item is ~8 px text in a
 * 1280 px screenshot, ~3 px when the screenshot is shown 500 px wide; the lens shows the
 * area around the point three times larger (≈ 9 px there, 15 px at 1440×900). It sits in
 * the corner away from the point, so it never covers what it magnifies. Placed in percent
 * of the screenshot, like the overlays, so it is right at any size.
 */
export function Magnifier({ src, size, point }: { src: string; size: ImageSize; point: Point }) {
  const fx = point.x / size.width;
  const fy = point.y / size.height;
  // The image inside the lens, in lens widths (the lens is square, so one unit for both axes).
  const scale = ZOOM / LENS_SHARE;
  const imgHeight = scale * (size.height / size.width);
  const corner = `${fy < 0.5 ? 'bottom' : 'top'}-${fx < 0.5 ? 'right' : 'left'}`;
  return (
    <div className={`magnifier magnifier-${corner}`} data-testid="magnifier" data-x={Math.round(point.x)} data-y={Math.round(point.y)} aria-hidden="true" style={{ width: `${LENS_SHARE * 100}%` }}>
      <img
        src={src}
        alt=""
        draggable={false}
        style={{ width: `${scale * 100}%`, left: `${(0.5 - fx * scale) * 100}%`, top: `${(0.5 - fy * imgHeight) * 100}%` }}
      />
      <span className="magnifier-mark" />
    </div>
  );
}
