// A server-rendered SVG bar chart of daily activity (no charting library: a few rects and labels are smaller than
// any). Screen readers get the chart's title and a one-sentence summary; the numbers are in the table beside it.
import type { DailyActivity } from "../../server/index.ts";

const WIDTH = 720;
const HEIGHT = 180;
const AXIS = 20;

export function ActivityChart({ activity, title }: { activity: DailyActivity[]; title: string }) {
  const max = Math.max(1, ...activity.map((day) => Math.max(day.quotes, day.protected)));
  const slot = WIDTH / Math.max(1, activity.length);
  const bar = Math.max(1, slot / 2 - 1);
  const height = (value: number) => ((HEIGHT - AXIS) * value) / max;
  const totalQuotes = activity.reduce((sum, day) => sum + day.quotes, 0);
  const totalProtected = activity.reduce((sum, day) => sum + day.protected, 0);
  const first = activity[0]?.date ?? "";
  const last = activity[activity.length - 1]?.date ?? "";
  return (
    <figure className="activity-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="activity-title activity-desc" width="100%">
        <title id="activity-title">{title}</title>
        <desc id="activity-desc">{`${totalQuotes} offers quoted and ${totalProtected} purchases protected from ${first} to ${last}; the busiest day had ${max}.`}</desc>
        <line x1="0" y1={HEIGHT - AXIS} x2={WIDTH} y2={HEIGHT - AXIS} stroke="#8a8a8a" />
        {activity.map((day, i) => (
          <g key={day.date}>
            <rect
              x={i * slot}
              y={HEIGHT - AXIS - height(day.quotes)}
              width={bar}
              height={height(day.quotes)}
              fill="#91d0ff"
            />
            <rect
              x={i * slot + bar}
              y={HEIGHT - AXIS - height(day.protected)}
              width={bar}
              height={height(day.protected)}
              fill="#005bd3"
            />
          </g>
        ))}
        <text x="0" y={HEIGHT - 4} fontSize="12" fill="#616161">
          {first}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} fontSize="12" fill="#616161" textAnchor="end">
          {last}
        </text>
      </svg>
      <figcaption>
        <span className="legend legend-quotes" aria-hidden="true" /> Offers quoted{" "}
        <span className="legend legend-protected" aria-hidden="true" /> Purchases protected
      </figcaption>
    </figure>
  );
}
