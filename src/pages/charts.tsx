// Charts drawn on the server as SVG (no script): bars for counts, a line for a level over time.
// Each is an image named by its title (role="img", aria-label and <title>), with the same numbers
// as a table in a <details> under it, for screen readers, copying and exact values.
import type { Child } from "./jsx-runtime";
import { DataTable } from "./table";

export interface ChartPoint {
  /** The x-axis label (a day or a month). */
  label: string;
  value: number;
}

export interface ChartProps {
  /** The chart's name: its heading, its accessible name and its table's caption. */
  title: string;
  /** An id unique on the page (the heading's and the title's). */
  id: string;
  points: ChartPoint[];
  /** How a value reads on the axis and in the table (default: the whole number). */
  format?: (value: number) => string;
  /** The table's heading of the x values ("Day", "Month"). */
  xLabel: string;
  /** The table's heading of the values ("Views"). */
  yLabel: string;
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 64;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 36;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** X labels drawn at most: the others are in the table. */
const MAX_X_LABELS = 8;

/** The axis' top: the smallest 1, 2 or 5 times a power of ten at or above the largest value (1 for none). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const round = (n: number) => Math.round(n * 10) / 10;
const plain = (n: number) => String(n);

/** The axes, the grid's three lines (0, half, top) and every n-th x label. */
function Frame({ points, top, format, slot }: { points: ChartPoint[]; top: number; format: (v: number) => string; slot: number }) {
  const every = Math.max(1, Math.ceil(points.length / MAX_X_LABELS));
  return (
    <g class="frame">
      {[0, top / 2, top].map((v) => {
        const y = round(TOP + PLOT_H - (v / top) * PLOT_H);
        return (
          <g>
            <line x1={String(LEFT)} x2={String(WIDTH - RIGHT)} y1={String(y)} y2={String(y)} class="grid" />
            <text x={String(LEFT - 6)} y={String(y + 4)} text-anchor="end">
              {format(v)}
            </text>
          </g>
        );
      })}
      {points.map((p, i) =>
        i % every === 0 ? (
          <text x={String(round(LEFT + slot * (i + 0.5)))} y={String(HEIGHT - BOTTOM + 18)} text-anchor="middle">
            {p.label}
          </text>
        ) : null,
      )}
    </g>
  );
}

function Figure({ props, kind, children }: { props: ChartProps; kind: "bar" | "line"; children?: Child }) {
  const format = props.format ?? plain;
  return (
    <figure class={`chart chart-${kind}`} aria-labelledby={`${props.id}-heading`}>
      <figcaption id={`${props.id}-heading`}>{props.title}</figcaption>
      <svg role="img" aria-label={props.title} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="xMidYMid meet" data-chart={props.id}>
        <title>{props.title}</title>
        {children}
      </svg>
      <details>
        <summary>The numbers of “{props.title}”</summary>
        <DataTable caption={props.title} columns={[props.xLabel, props.yLabel]} class="chart-table">
          {props.points.map((p) => (
            <tr>
              <th scope="row">{p.label}</th>
              <td>{format(p.value)}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}

/** One bar per point, from zero up. */
export function BarChart(props: ChartProps) {
  const top = niceMax(Math.max(0, ...props.points.map((p) => p.value)));
  const slot = PLOT_W / Math.max(1, props.points.length);
  return (
    <Figure props={props} kind="bar">
      <Frame points={props.points} top={top} format={props.format ?? plain} slot={slot} />
      {props.points.map((p, i) => {
        const h = round((p.value / top) * PLOT_H);
        return <rect class="bar" x={String(round(LEFT + slot * i + slot * 0.15))} y={String(round(TOP + PLOT_H - h))} width={String(round(slot * 0.7))} height={String(h)} />;
      })}
    </Figure>
  );
}

/** A line through the points, each marked. */
export function LineChart(props: ChartProps) {
  const top = niceMax(Math.max(0, ...props.points.map((p) => p.value)));
  const slot = PLOT_W / Math.max(1, props.points.length);
  const xy = props.points.map((p, i) => [round(LEFT + slot * (i + 0.5)), round(TOP + PLOT_H - (p.value / top) * PLOT_H)] as const);
  return (
    <Figure props={props} kind="line">
      <Frame points={props.points} top={top} format={props.format ?? plain} slot={slot} />
      <polyline class="line" points={xy.map(([x, y]) => `${x},${y}`).join(" ")} />
      {xy.map(([x, y]) => (
        <circle class="dot" cx={String(x)} cy={String(y)} r="3" />
      ))}
    </Figure>
  );
}
