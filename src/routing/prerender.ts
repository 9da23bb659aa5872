import { paths } from './paths.ts';

/** The routes written as static HTML at build time (scripts/vite-plugins/prerender.ts). */
export const PRERENDERED_ROUTES = [
  paths.home,
  paths.contact,
  paths.about,
  paths.policy,
  paths.howWeEarn,
] as const;

/** Attribute on #root naming the route whose markup the HTML file holds. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

export function prerenderedRoute(root: HTMLElement): string | null {
  return root.getAttribute(PRERENDERED_ATTRIBUTE);
}
