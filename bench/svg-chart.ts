/**
 * A horizontal bar chart as a hand-written SVG string (no plotting dependency):
 * one bar per scenario, its length the service's throughput as a fraction of
 * the baseline's, grouped by store, with each target marked.
 */

export interface ChartBar {
  label: string;
  /** Service throughput / baseline throughput. */
  ratio: number;
  /** The ratio the issue asks for, if any. */
  target?: number;
  /** Printed after the bar, e.g. "8,120 vs 12,400 req/s". */
  detail: string;
}

export interface ChartGroup {
  title: string;
  bars: ChartBar[];
}

const WIDTH = 960;
const LABEL_WIDTH = 250;
const BAR_WIDTH = 400;
const ROW = 24;
const GROUP_GAP = 34;
const MAX_RATIO = 1.5;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Two decimals, or three where two would round across the target. */
function ratioText({ ratio, target }: ChartBar): string {
  return target !== undefined && ratio < target && Number(ratio.toFixed(2)) >= target ? ratio.toFixed(3) : ratio.toFixed(2);
}

const x = (ratio: number) => LABEL_WIDTH + (Math.min(ratio, MAX_RATIO) / MAX_RATIO) * BAR_WIDTH;

export function renderRatioChart(title: string, groups: readonly ChartGroup[]): string {
  const parts: string[] = [];
  let y = 56;
  for (const group of groups) {
    parts.push(`<text x="8" y="${y}" class="group">${escapeXml(group.title)}</text>`);
    y += 10;
    for (const bar of group.bars) {
      const met = bar.target === undefined ? undefined : bar.ratio >= bar.target;
      const fill = met === undefined ? '#7f8fa6' : met ? '#2e8b57' : '#c0392b';
      parts.push(
        `<text x="${LABEL_WIDTH - 8}" y="${y + 16}" text-anchor="end">${escapeXml(bar.label)}</text>`,
        `<rect x="${LABEL_WIDTH}" y="${y + 4}" width="${(x(bar.ratio) - LABEL_WIDTH).toFixed(1)}" height="${ROW - 8}" fill="${fill}"/>`,
        `<text x="${x(MAX_RATIO) + 8}" y="${y + 16}">${escapeXml(`${ratioText(bar)}×  ${bar.detail}`)}</text>`,
      );
      if (bar.ratio > MAX_RATIO) {
        // Cut off at the axis end: a white chevron says the bar goes on.
        const end = x(MAX_RATIO);
        parts.push(`<path d="M${end - 10} ${y + 4} l6 ${(ROW - 8) / 2} l-6 ${(ROW - 8) / 2}" fill="none" stroke="#fff" stroke-width="2"/>`);
      }
      if (bar.target !== undefined) {
        parts.push(`<line x1="${x(bar.target)}" x2="${x(bar.target)}" y1="${y + 1}" y2="${y + ROW - 1}" stroke="#000" stroke-width="2"/>`);
      }
      y += ROW;
    }
    y += GROUP_GAP - 10;
  }
  const height = y + 24;
  const ticks = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5]
    .map((t) => `<line x1="${x(t)}" x2="${x(t)}" y1="40" y2="${height - 30}" ${t === 1 ? 'stroke="#888" stroke-dasharray="4 3"' : 'stroke="#ddd"'}/>` +
      `<text x="${x(t)}" y="${height - 14}" text-anchor="middle" class="axis">${t.toFixed(2)}×</text>`)
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    '<style>.group{font-weight:bold;font-size:14px}.axis{fill:#555;font-size:11px}.title{font-weight:bold;font-size:16px}</style>',
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="8" y="24" class="title">${escapeXml(title)}</text>`,
    `<text x="8" y="40" class="axis">bar: service throughput ÷ baseline throughput (green: target met, red: missed, grey: no target; black tick: target)</text>`,
    ticks,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
