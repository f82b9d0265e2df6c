import { useRef, type ReactNode } from 'react';
import type { Point } from '../../shared/actions.js';
import { clientToImage, type ImageSize } from '../lib/geometry.js';

/**
 * A screenshot the model saw, shown at the width available, with overlays placed on
 * top in image percent. When `onPick` is given, a click on it picks a point in image
 * pixels (to move a proposed click).
 */
export function Screenshot({
  src,
  size,
  alt,
  children,
  onPick,
  testId,
}: {
  src: string;
  size: ImageSize;
  alt: string;
  children?: ReactNode;
  onPick?: (p: Point) => void;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={ref}
      className={`shot${onPick ? ' shot-pickable' : ''}`}
      data-testid={testId}
      style={{ aspectRatio: `${size.width} / ${size.height}` }}
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
