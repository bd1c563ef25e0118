/**
 * How counts and sizes read wherever a person or a model sees them (notices, links, page summaries). Apart from the
 * notices' wording so that reading pages does not bring the offloader's text with it.
 */

/** "1,234". */
export const count = (n: number) => n.toLocaleString('en-US');

/** "1,048,576 bytes (1.0 MiB)". */
export function formatSize(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = '';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  return unit ? `${count(bytes)} bytes (${value.toFixed(1)} ${unit})` : `${count(bytes)} bytes`;
}
