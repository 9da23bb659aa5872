import { Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState, type ComponentType } from 'react';
import { texts } from '../../../adminTexts';
import { BrokenLinksSection } from '../linkHealth/BrokenLinksSection';
import { ClickInsightsSection } from './ClickInsightsSection';
import { INSIGHT_PERIODS, type InsightPeriod } from './insightsApi';

const t = texts.insights;

/** A part of the Insights tab: it shows its figures for the chosen period. */
export type InsightsSection = ComponentType<{ days: InsightPeriod }>;

/** Link health is not tied to a period: the latest check of every link. */
const LinkHealthSection: InsightsSection = () => <BrokenLinksSection />;

/** The tab's sections, top to bottom: broken and redirected links first, then the clicks. */
export const INSIGHTS_SECTIONS: readonly InsightsSection[] = [
  LinkHealthSection,
  ClickInsightsSection,
];

/** Admin tab "Insights": what shoppers follow, over the last 7, 30 or 90 days. */
export function InsightsTab() {
  const [days, setDays] = useState<InsightPeriod>(30);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} maw={560}>
          <Title order={2} size="h3">
            {t.tab}
          </Title>
          <Text size="sm" c="dimmed">
            {t.intro}
          </Text>
          <Text size="xs" c="dimmed">
            {t.bestEffort}
          </Text>
        </Stack>
        <SegmentedControl
          aria-label={t.period}
          value={String(days)}
          onChange={(value) => setDays(Number(value) as InsightPeriod)}
          data={INSIGHT_PERIODS.map((d) => ({ value: String(d), label: t.periods[d] }))}
          size="xs"
        />
      </Group>
      {INSIGHTS_SECTIONS.map((Section, i) => (
        <Section key={i} days={days} />
      ))}
    </Stack>
  );
}
