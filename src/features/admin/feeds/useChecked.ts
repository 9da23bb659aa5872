import { useCallback, useEffect, useState } from 'react';

/** Multi-select of the rows shown: cleared whenever another list is shown. */
export function useChecked(rowIds: string[]) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const key = rowIds.join(',');
  useEffect(() => setChecked((s) => (s.size ? new Set() : s)), [key]);
  const toggle = useCallback((id: string, on: boolean) => {
    setChecked((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const all = rowIds.length > 0 && rowIds.every((id) => checked.has(id));
  const some = rowIds.some((id) => checked.has(id));
  const toggleAll = () => setChecked(all ? new Set() : new Set(rowIds));
  const clear = () => setChecked(new Set());
  return { checked, toggle, all, some, toggleAll, clear };
}
