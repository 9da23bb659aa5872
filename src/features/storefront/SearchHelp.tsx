import { Button, Group, Text } from '@mantine/core';
import { texts } from '../../searchTexts';
import type { StoreView } from './storeView';

// Loaded by the home page on the first search or empty listing (its JS budget).

interface HelpProps {
  view: StoreView;
  onChange: (patch: Partial<StoreView>) => void;
}

/** Above a search's results, or (`empty`) next to "No Products". */
export default function SearchHelp(
  props: HelpProps & { empty?: boolean; unknownCategory?: boolean },
) {
  return props.empty ? (
    <EmptyHelp {...props} unknownCategory={!!props.unknownCategory} />
  ) : (
    <SearchScope {...props} />
  );
}

/** What a search looks through; within a category, the way to search them all (REQ-PATH-2). */
function SearchScope({ view, onChange }: HelpProps) {
  return (
    <Group gap="xs" data-testid="search-scope">
      <Text>{texts.storeSearch.resultsFor(view.q.trim(), view.cat)}</Text>
      {view.cat !== null && <WidenButton onClick={() => onChange({ cat: null })} />}
    </Group>
  );
}

function WidenButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="light" size="compact-md" onClick={onClick}>
      {texts.storeSearch.searchAll}
    </Button>
  );
}

/**
 * Next to "No Products" (REQ-PATH-2): what was looked for, how to widen it and a way back; a
 * category nobody has or had is said to not exist, with the way to all products.
 */
function EmptyHelp({ view, unknownCategory, onChange }: HelpProps & { unknownCategory: boolean }) {
  const t = texts.storeSearch;
  const q = view.q.trim();
  const cat = view.cat;
  const message =
    unknownCategory && cat
      ? t.unknownCategory(cat)
      : q
        ? `${t.nothingFor(q, cat)} ${cat ? t.widen : t.widenAll}`
        : cat
          ? t.emptyCategory(cat)
          : null;
  if (!message) return null;
  return (
    <>
      <Text ta="center" data-testid="no-products-help">
        {message}
      </Text>
      <Group justify="center" gap="sm">
        {cat !== null && !unknownCategory && q && (
          <WidenButton onClick={() => onChange({ cat: null })} />
        )}
        {q && !unknownCategory && (
          <Button variant="outline" onClick={() => onChange({ q: '' })}>
            {t.clear}
          </Button>
        )}
        {cat !== null && (unknownCategory || !q) && (
          <Button variant="outline" onClick={() => onChange({ cat: null })}>
            {t.showAll}
          </Button>
        )}
      </Group>
    </>
  );
}
