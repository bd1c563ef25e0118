/** Numbers and text as the load report's charts print them: escaped text, rounded labels, axis ticks. */

/** Escapes text for XML and HTML (content and attribute values). */
export const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A number for a label: 3 significant digits below 1,000, grouped digits above. */
export function formatNumber(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(Number(value.toPrecision(3)));
}

/** A number for an axis tick: like `formatNumber`, with thousands as "k" from 10,000 on to keep ticks narrow. */
export const formatTick = (value: number): string =>
  Math.abs(value) >= 10_000 ? `${formatNumber(value / 1000)}k` : formatNumber(value);

/** Round tick values from 0 to at least `max` (steps of 1, 2 or 5 times a power of ten). */
export function linearTicks(max: number, target = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let i = 0; ticks.at(-1) === undefined || ticks.at(-1)! < max; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return ticks;
}

/** Round tick values from 0 up to `max` (not past it), for an axis that ends exactly at `max`. */
export function ticksWithin(max: number, target = 8): number[] {
  const ticks = linearTicks(max, target);
  return ticks.at(-1)! > max && ticks.length > 2 ? ticks.slice(0, -1) : ticks;
}

/** Ticks at 1, 2 and 5 times the powers of ten within [min, max] (both > 0). */
export function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let k = Math.floor(Math.log10(min)); k <= Math.ceil(Math.log10(max)); k++) {
    for (const m of [1, 2, 5]) {
      const value = Number((m * 10 ** k).toPrecision(12));
      if (value >= min && value <= max) ticks.push(value);
    }
  }
  return ticks;
}
