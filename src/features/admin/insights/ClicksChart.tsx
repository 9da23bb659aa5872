import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { texts } from '../../../adminTexts';
import type { DayClicks } from './insightsApi';

const dayLabel = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/**
 * Clicks per day as bars (@mantine/charts over recharts; this module and its CSS load only with
 * the Insights tab). Screen readers get the summary in the figure's label; the numbers behind it
 * are in the tables below.
 */
export function ClicksChart({ perDay, label }: { perDay: DayClicks[]; label: string }) {
  const data = perDay.map((d) => ({
    day: dayLabel.format(new Date(`${d.day}T00:00:00Z`)),
    clicks: d.clicks,
  }));
  return (
    <figure aria-label={label} style={{ margin: 0 }} data-testid="clicks-chart">
      <BarChart
        h={220}
        data={data}
        dataKey="day"
        series={[{ name: 'clicks', label: texts.insights.clicks, color: 'teal.6' }]}
        tickLine="y"
        gridAxis="y"
        withTooltip
        tooltipAnimationDuration={0}
        barProps={{ isAnimationActive: false }}
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
        yAxisProps={{ allowDecimals: false, width: 40 }}
      />
    </figure>
  );
}
