/**
 * Phones show the category buttons on one row that scrolls sideways. After a choice (or on a
 * shared `/?cat=` link) the chosen button must be on screen, and the row must not be left with a
 * button cut in half at its left edge, nor scroll "All" away when the choice fits without it
 * (REQ-FIND-8: centring the chosen button did both).
 *
 * The row scrolls as little as it must, and always to a button's left edge: the left-most
 * visible button is whole. A button hidden on the left (or the first one at the left edge) brings
 * its left neighbour with it, so the visitor can go back that way. Near the end of the row, where it cannot scroll far
 * enough to put a button's edge at the left, it gets that much room after the last button.
 */
export function scrollChosenIntoView(row: HTMLElement, chosen: HTMLElement): void {
  const buttons = [...row.children].filter((el): el is HTMLElement => el instanceof HTMLElement);
  const index = buttons.indexOf(chosen);
  if (index < 0 || row.scrollWidth <= row.clientWidth) return;
  const box = row.getBoundingClientRect();
  // Positions in the row's scrolled content, independent of the current scroll.
  const starts = buttons.map((el) => el.getBoundingClientRect().left - box.left + row.scrollLeft);
  // The row's padding keeps the focus outline inside the scroll box: keep it when aligning.
  const inset = parseFloat(getComputedStyle(row).paddingLeft) || 0;
  const left = starts[index]!;
  const right = left + chosen.getBoundingClientRect().width;
  const width = row.clientWidth;

  let target: number;
  if (row.scrollLeft > 0 && left - inset < row.scrollLeft + 1) {
    // Hidden (partly) on the left, or first at the left edge with more hidden before it: show it
    // with its left neighbour if both fit, else alone.
    const neighbour = index > 0 ? starts[index - 1]! : left;
    target = right - (neighbour - inset) <= width ? neighbour - inset : left - inset;
  } else if (right + inset > row.scrollLeft + width) {
    // Hidden (partly) on the right: the first button edge far enough right to show it whole.
    const needed = right + inset - width;
    target = (starts.find((start) => start - inset >= needed && start <= left) ?? left) - inset;
  } else {
    return;
  }
  target = Math.max(0, target);
  // Room after the last button when the row cannot scroll that far by itself.
  row.style.paddingRight = '';
  const max = row.scrollWidth - width;
  if (target > max) row.style.paddingRight = `${inset + target - max}px`;
  row.scrollLeft = target;
}
