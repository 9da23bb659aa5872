// @vitest-environment jsdom
// The store's one-row tables (store settings, storefront content) reach the page after its first
// render. A row that arrives as the page already shows it must not draw anything again, and a
// change to one part must draw again only what reads that part: on the home page every product
// card reads the settings, and re-rendering 24 cards was one long task on a phone (REQ-WEIGHT-6).
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  currentStoreSettings,
  shareUnchanged,
  updateStoreSettings,
  useStoreSetting,
  useStoreSettings,
} from '../../src/lib/infra/storeSettings';
import {
  updateStorefrontContent,
  useStorefrontContent,
  type StorefrontContentRow,
} from '../../src/lib/infra/storefrontContent';
import { storeSettingsRow } from './storeSettingsRow';

const settingsRow = storeSettingsRow({ instagram_url: 'https://www.instagram.com/mar' });

function renderCounter(read: () => unknown) {
  const counts = { renders: 0 };
  function Reader() {
    read();
    counts.renders += 1;
    return null;
  }
  render(<Reader />);
  return counts;
}

describe('store settings arriving after the first render', () => {
  it('the same row again draws nothing again; a changed part draws only its readers', () => {
    act(() => updateStoreSettings(settingsRow));
    const whole = renderCounter(() => useStoreSettings());
    const limits = renderCounter(() => useStoreSetting('priceLimits'));
    const disclosure = renderCounter(() => useStoreSetting('disclosure'));
    expect([whole.renders, limits.renders, disclosure.renders]).toEqual([1, 1, 1]);

    // The fetch's row, equal to what the page shows: nobody renders again.
    const before = currentStoreSettings();
    act(() => updateStoreSettings({ ...settingsRow }));
    expect(currentStoreSettings()).toBe(before);
    expect([whole.renders, limits.renders, disclosure.renders]).toEqual([1, 1, 1]);

    // The owner changed the disclosure: its readers render again, the price limits' do not.
    act(() => updateStoreSettings({ ...settingsRow, disclosure_text: 'Ad: we are paid.' }));
    expect(currentStoreSettings().disclosure).toBe('Ad: we are paid.');
    expect(currentStoreSettings().priceLimits).toBe(before.priceLimits);
    expect([whole.renders, limits.renders, disclosure.renders]).toEqual([2, 1, 2]);

    act(() => updateStoreSettings({ ...settingsRow, price_stale_after_days: 3 }));
    expect(currentStoreSettings().priceLimits).toEqual({ staleDays: 3, hiddenDays: 30 });
    expect([whole.renders, limits.renders, disclosure.renders]).toEqual([3, 2, 3]);
  });

  it('shareUnchanged keeps each equal part and makes a new object only for a change', () => {
    const a = currentStoreSettings();
    expect(shareUnchanged({ ...a, social: [...a.social] }, a)).toBe(a);
    const b = shareUnchanged({ ...a, name: 'Other', trader: { ...a.trader } }, a);
    expect(b).not.toBe(a);
    expect(b.name).toBe('Other');
    expect(b.trader).toBe(a.trader);
    expect(b.social).toBe(a.social);
  });
});

describe('storefront content arriving after the first render', () => {
  it('the same row again draws nothing again; a changed row does', () => {
    const row = { about_text: 'About us', slide_1_heading: 'Sale' } as StorefrontContentRow;
    act(() => updateStorefrontContent(row));
    const banner = renderCounter(() => useStorefrontContent());
    act(() => updateStorefrontContent({ ...row }));
    expect(banner.renders).toBe(1);
    act(() => updateStorefrontContent({ ...row, slide_1_heading: 'Summer sale' }));
    expect(banner.renders).toBe(2);
  });
});
