/**
 * The CSV import dialog's preview and template texts (REQ-PATH-12): part of the admin texts
 * (src/adminTexts.ts, spread in), kept apart because only the dialog and the export, both loaded
 * when first used, show them: in src/adminTexts.ts they counted against the admin chunk's budget.
 * Code in those chunks imports `texts` from here.
 */
import { texts as adminTexts } from './adminTexts';

export const texts = {
  ...adminTexts,
  csvPreview: {
    changesCaption: 'What Apply will add and change',
    changesHeading: 'What happens',
    willAdd: 'New product',
    change: (field: string, before: string, after: string) => `${field}: ${before} → ${after}`,
    firstChanges: (n: number) => `The first ${n} are listed.`,
    fileName: (name: string) => `File: ${name}`,
    template: 'Download a template',
    templateName: 'catalogue-template.csv',
    templateExample: {
      title: 'Match football',
      cat: 'Football',
      price: '£12.50',
      com: 'Size 5, hand-stitched, for grass pitches',
      image: '/products/match-football.svg',
      link: 'https://example.com/match-football',
    },
  },
};
