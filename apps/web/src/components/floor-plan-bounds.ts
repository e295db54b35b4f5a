/** A [south-west, north-east] pair in CRS.Simple coordinates: [y, x]. */
export type SimpleBounds = [[number, number], [number, number]];

/**
 * The bounds of an image in CRS.Simple, one unit per natural pixel. The origin is the bottom-left corner,
 * so y grows upwards as Leaflet expects; a device at pixel (x, y from the top) sits at [height - y, x].
 */
export function imageBounds(size: { width: number; height: number }): SimpleBounds {
  return [
    [0, 0],
    [size.height, size.width],
  ];
}

/** Opacity as the slider shows it (0-100 %) from the stored 0-1 value, clamped and rounded. */
export function opacityPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || Number.isNaN(value)) return 100;
  return Math.round(Math.min(1, Math.max(0, value)) * 100);
}
