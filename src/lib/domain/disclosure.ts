import { texts } from '../../texts.ts';

/**
 * The owner's disclosure text (store settings) as label and line, for the app and the host
 * function's pages alike. It always starts with the bold "Ad:" label, whether or not the owner's
 * text does: the label is what shoppers recognise (docs/decisions/0210).
 */
export function disclosureParts(text: string): { label: string; line: string } {
  const label = texts.disclosure.label;
  const line = text.replace(new RegExp(`^\\s*${label}\\s*:\\s*`, 'i'), '').trim();
  return { label, line: line || texts.disclosure.line };
}
