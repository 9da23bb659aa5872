/**
 * The admin area's texts for product feeds (REQ-FEED-1, REQ-FEED-5): the admin and seller texts
 * (src/adminOfferTexts.ts) plus what only the Feeds tab shows. Same rule as src/texts.ts (one
 * place, no dead keys, no repeats); kept apart because the Feeds tab loads as a chunk of its own.
 * Code in that chunk imports `texts` from here.
 */
import { texts as offerTexts } from './adminOfferTexts';

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

export const texts = {
  ...offerTexts,
  feeds: {
    intro:
      'Product feeds of sellers and networks keep offers’ prices and availability true. Each feed is read on its schedule or with Run now.',
    loading: 'Loading the feeds',
    loadFailed: 'Could not load the feeds.',
    empty: 'No feeds yet.',
    add: 'Add feed',
    editTitle: (name: string) => `Edit feed ${name}`,
    sourcesLabel: 'Feed sources',
    format: 'Format',
    schedule: 'Schedule',
    lastRun: 'Last run',
    nextRun: 'Next run',
    never: 'Never',
    notScheduled: 'Not scheduled',
    disabled: 'Off',
    runNow: 'Run now',
    reports: 'Reports',
    reportsOf: (name: string) => `Reports of ${name}`,
    running: (rows: number) => `Reading: ${plural(rows, 'row', 'rows')} read`,
    runDone: (name: string) => `Feed ${name} read`,
    runFailed: 'The feed run failed',
    runRequestFailed: 'The feed could not be started',
    serviceFailed: 'The feed service did not answer. Please try again.',
    deleted: 'Feed deleted',
    deleteFailed: 'The feed was not deleted',
    confirmTitle: 'Delete feed?',
    confirmText: (name: string) =>
      `This permanently deletes the feed "${name}" with its reports, unmatched rows and held price changes. Offers stay.`,
    formatLabel: {
      csv: 'CSV',
      tsv: 'TSV',
      google_xml: 'Google Merchant XML',
      google_tsv: 'Google Merchant TSV',
      awin_csv: 'Awin CSV',
    },
    scheduleLabel: {
      manual: 'Manual (Run now only)',
      '15': 'Every 15 minutes',
      '60': 'Hourly',
      '360': 'Every 6 hours',
      '720': 'Every 12 hours',
      '1440': 'Daily',
    },
    status: {
      queued: 'Queued',
      fetching: 'Reading',
      staged: 'Read, applying',
      applying: 'Applying',
      done: 'Done',
      unchanged: 'Unchanged',
      failed: 'Failed',
    },
  },
  feedForm: {
    save: 'Save feed',
    saved: 'Feed saved',
    failed: 'The feed could not be saved. Please try again.',
    changedElsewhere:
      'Another admin changed this feed meanwhile. The list shows their version now: check it and save again.',
    name: 'Feed name',
    origin: 'Where the feed comes from',
    originUrl: 'Web address',
    originUpload: 'Uploaded file',
    url: 'Feed address',
    file: 'Feed file',
    fileHint: 'At most 200 MB. The file is read with Run now.',
    uploading: 'Uploading the file',
    uploaded: (name: string) => `Uploaded: ${name}`,
    uploadFailed: 'The file could not be uploaded. Please try again.',
    compression: 'Compression',
    compressionLabel: { auto: 'Detect', none: 'None', gzip: 'gzip' },
    kind: 'Feed holds',
    kindFull: 'Every product (full)',
    kindDelta: 'Changes only (delta)',
    kindHint:
      'Full: offers missing from the feed become unavailable. Delta: only listed rows change.',
    mapping: 'Column mapping',
    mappingHint: 'Which column of the feed holds each value. Link and price are required.',
    mappingFixed: 'Google Merchant XML names its fields itself: no mapping needed.',
    noColumn: 'Not in the feed',
    presetAwin: 'Awin preset',
    presetGoogle: 'Google Merchant preset',
    preview: 'Preview the first rows',
    previewFailed: 'The preview failed',
    previewNeedsSource: 'Give the feed address or upload a file first',
    previewCaption: 'The first rows as mapped',
    field: {
      id: 'Seller product id',
      gtin: 'GTIN / EAN',
      title: 'Title',
      link: 'Link',
      price: 'Price',
      sale_price: 'Sale price',
      currency: 'Currency',
      delivery: 'Delivery cost',
      availability: 'Availability',
      image: 'Image',
      brand: 'Brand',
    },
    matchByTitle: 'Also match by exact title',
    matchByTitleWarning:
      'Only when the seller gives no GTIN or ids: two different products with the same title would be mixed up.',
    maxChange: 'Price change limit (%)',
    maxChangeHint: 'A bigger jump is held for review instead of applied (1 to 1000).',
    enabled: 'Read on schedule',
    nameInUse: 'A feed with this name already exists',
    urlInvalid: 'Feed address must be a web address starting with https:// or http://',
    fileRequired: 'Upload a feed file',
    fileTooBig: 'The file is over 200 MB',
    columnRequired: 'Choose the column',
    maxChangeInvalid: 'Enter a whole number from 1 to 1000',
  },
  feedRuns: {
    heading: 'Recent runs',
    empty: 'Not read yet.',
    label: 'Recent runs of this feed',
    status: 'Run status',
    started: 'Started',
    duration: 'Duration',
    rows: 'Rows',
    outcome: 'Outcome',
    counts: (r: {
      matched: number;
      added: number;
      changed: number;
      unchanged: number;
      unmatched: number;
      refused: number;
      held: number;
      made_unavailable: number;
    }) => {
      const n = (x: number) => x.toLocaleString('en-GB');
      return `${n(r.matched)} matched (${n(r.added)} added, ${n(r.changed)} changed, ${n(r.unchanged)} unchanged), ${n(r.unmatched)} unmatched, ${n(r.refused)} refused, ${n(r.held)} held, ${n(r.made_unavailable)} made unavailable`;
    },
    refusedCodes: 'Refused rows by reason',
    refusedLine: (line: number, codes: string) => `Line ${line.toLocaleString('en-GB')}: ${codes}`,
    seconds: (s: number) => `${s.toLocaleString('en-GB')} s`,
  },
  feedUnmatched: {
    heading: 'Unmatched rows',
    intro: 'Feed rows that match no product. Create the product, or ignore the row.',
    label: 'Unmatched feed rows',
    open: 'Open',
    ignored: 'Ignored',
    show: 'Show',
    empty: 'No unmatched rows.',
    create: 'Create product',
    createTitle: (title: string) => `Create product ${title}`,
    createHint:
      'The product takes its title, price, picture and link from the row; the product form’s rules apply.',
    commentRequired: 'Comment is required',
    categoryRequired: 'Category is required',
    created: 'Product created',
    createFailed: 'The product could not be created.',
    ignore: 'Ignore',
    reopen: 'Reopen',
    ignoredDone: (n: number) => `${plural(n, 'row', 'rows')} ignored`,
    reopened: (n: number) => `${plural(n, 'row', 'rows')} reopened`,
    actionFailed: 'The rows were not changed.',
    selectAll: 'Select every row shown',
    selectRow: (title: string) => `Select ${title}`,
    selected: (n: number) => `${n} selected`,
    source: 'Feed',
    key: 'Key',
  },
  feedHeld: {
    heading: 'Held price changes',
    intro: 'Price jumps bigger than the feed’s limit wait here. The offer keeps its old price.',
    empty: 'No held price changes.',
    product: 'Product',
    oldToNew: 'Old → new price',
    change: 'Change',
    apply: 'Apply',
    reject: 'Reject',
    applied: (n: number) => `${plural(n, 'price change', 'price changes')} applied`,
    rejected: (n: number) => `${plural(n, 'price change', 'price changes')} rejected`,
    failed: 'The price changes were not decided.',
  },
} as const;
export { constants } from './adminTexts';
