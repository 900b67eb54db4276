// Line charts for a TTY: asciichart when there is room, a one-line sparkline when the terminal
// is narrow. Values here are for drawing only (floats are fine); money stays bigint elsewhere.
const BARS = '▁▂▃▄▅▆▇█';

/** A one-line sparkline of the values. */
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  return values.map((v) => BARS[Math.round(((v - lo) / span) * 7)] ?? '').join('');
}

/** Fits a series to `width` points (keeps the last point). */
function fit(values: readonly number[], width: number): number[] {
  if (values.length <= width) return [...values];
  const out: number[] = [];
  for (let i = 0; i < width; i++) out.push(values[Math.round((i * (values.length - 1)) / (width - 1))] ?? 0);
  return out;
}

/**
 * The chart for a terminal `columns` wide: an asciichart line chart (height rows) when at least
 * 50 columns are free, else a sparkline. `label` formats the y axis.
 */
export async function drawChart(
  values: readonly number[],
  columns: number | undefined,
  o: { height?: number; label?: (v: number) => string } = {},
): Promise<string> {
  const cols = columns ?? 80;
  if (cols < 50) return sparkline(fit(values, Math.max(8, cols - 2)));
  const { default: asciichart } = await import('asciichart');
  const fmt = o.label ?? ((v: number) => v.toFixed(2));
  const axis = Math.max(...values.map((v) => fmt(v).length), 6) + 1;
  const width = Math.max(10, cols - axis - 4);
  const series = fit(values, width);
  return asciichart.plot(series, { height: o.height ?? 10, format: (v: number) => fmt(v).padStart(axis) });
}
