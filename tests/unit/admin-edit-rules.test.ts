import { describe, expect, it } from 'vitest';
import { likeLiteral } from '../../src/lib/domain/likePattern';
import {
  categoryEditBlocker,
  productEditBlocker,
  titleNeedsCheck,
} from '../../src/features/admin/editor/editRules';

const loaded = { id: 'id-1', originalTitle: 'Match Football' };

describe('productEditBlocker (Update/Delete need a title and a prior Get)', () => {
  it('asks for a title first', () => {
    expect(productEditBlocker('', null)).toBe('Please Enter Title and Click on Get Product');
    expect(productEditBlocker('  ', loaded)).toBe('Please Enter Title and Click on Get Product');
  });
  it('asks for Get Product when nothing is loaded', () => {
    expect(productEditBlocker('Match Football', null)).toBe('Click on Get Product');
  });
  it('lets a loaded product through', () => {
    expect(productEditBlocker('Renamed', loaded)).toBeNull();
  });
});

describe('categoryEditBlocker', () => {
  it('asks for Get Catagory without a title or a loaded catagory', () => {
    expect(categoryEditBlocker('', null)).toBe('Click on Get Catagory');
    expect(categoryEditBlocker('Football', null)).toBe('Click on Get Catagory');
    expect(categoryEditBlocker('', loaded)).toBe('Click on Get Catagory');
    expect(categoryEditBlocker('Football', loaded)).toBeNull();
  });
});

describe('titleNeedsCheck', () => {
  it('skips the uniqueness check for an unchanged title (case and spaces ignored)', () => {
    expect(titleNeedsCheck('Match Football', loaded)).toBe(false);
    expect(titleNeedsCheck(' match football ', loaded)).toBe(false);
  });
  it('checks a new title and always checks when adding', () => {
    expect(titleNeedsCheck('Training Football', loaded)).toBe(true);
    expect(titleNeedsCheck('Match Football', null)).toBe(true);
  });
});

describe('likeLiteral', () => {
  it('escapes LIKE wildcards so titles match literally', () => {
    expect(likeLiteral('50% off_now\\')).toBe('50\\% off\\_now\\\\');
    expect(likeLiteral('Plain')).toBe('Plain');
  });
});
