import { useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { Point } from '../../shared/actions.js';
import { clientToImage, type ImageSize } from '../lib/geometry.js';

/**
 * A screenshot the model saw, shown at the width available, with overlays placed on
 * top in image percent. When `onPick` is given, a click on it picks a point in image
 * pixels (to move a proposed click), and the screenshot is focusable so `onKeyDown`
 * can move the point from the keyboard (`pickLabel` tells a screen reader how).
 */
export function Screenshot({
  src,
  size,
  alt,
  children,
  onPick,
  testId,
  focusRef,
  onKeyDown,
  pickLabel,
  maxHeight,
}: {
  src: string;
  size: ImageSize;
  alt: string;
  children?: ReactNode;
  onPick?: (p: Point) => void;
  testId?: string;
  focusRef?: RefObject<HTMLDivElement | null>;
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  pickLabel?: string;
  /** Cap the shown height to this CSS length ("42vh", "calc(100vh - 150px)"); the width follows the image's aspect ratio. */
  maxHeight?: string;
}) {
  const own = useRef<HTMLDivElement>(null);
  const ref = focusRef ?? own;
  return (
    <div
      ref={ref}
      className={`shot${onPick ? ' shot-pickable' : ''}`}
      data-testid={testId}
      style={{ aspectRatio: `${size.width} / ${size.height}`, ...(maxHeight ? { maxWidth: `calc(${maxHeight} * ${size.width / size.height})` } : {}) }}
      {...(onPick ? { tabIndex: 0, role: 'application', 'aria-label': pickLabel ?? alt, onKeyDown } : {})}
      onClick={
        onPick
          ? (e) => {
              const rect = ref.current?.getBoundingClientRect();
              if (rect && rect.width > 0) onPick(clientToImage(e, rect, size));
            }
          : undefined
      }
    >
      <img src={src} alt={alt} draggable={false} loading="lazy" decoding="async" />
      <div className="shot-overlays">{children}</div>
    </div>
  );
}
